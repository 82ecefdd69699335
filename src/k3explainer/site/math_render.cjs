// Renders batches of formulas to MathML with Temml: each stdin line a batch [{tex, display}], each
// stdout line its results [{html} | {error}]. math.py runs one process per build and sends the
// formulas its cache lacks as one batch.
//
// Temml builds the MathML tree; these repairs are made before it is written out, each for a place
// where the result would otherwise differ from TeX's:
// - a formula's top level is cut into rows that each end after a binary operator or relation
//   (TeX's break points, TeXbook p. 173) or a comma, never inside brackets, so a narrow screen
//   wraps a long formula between terms instead of cutting it off (Temml's stylesheet lays the
//   rows out as a wrapping flex line); a display formula stays one inline <math> set in display
//   style so it can wrap too. The operator a row ends with is marked infix: as the last child of
//   its row the browser would take it for a postfix operator and space it wrongly;
// - an operator inside a sub- or superscript gets no space around it, as in TeX's script styles
//   (the browser keeps the text-size space, so S_{t-1} reads "t − 1");
// - a sized fence (\bigl( … \bigr)) gets no space around it, as TeX's opening and closing atoms,
//   and the two smaller sizes (\big, \Big) are drawn as the plain bracket scaled up: stretched
//   to those heights, Chromium keeps the plain glyph but gives it the advance of a larger one,
//   which opens a gap on both sides;
// - a subscript under a letter with a descender (β_t, p_i) sits where it would under any other
//   letter: TeX lowers subscripts for a base's depth only when the base is a formula, never for
//   a single character, while the browser always does. The letter's depth is set to zero for
//   placing the script (<mpadded depth="0">); the letter itself is drawn as before;
// - a comma between two digits is punctuation, as in TeX: Temml reads "(0,1)" as the one number
//   "0,1" and sets no space after the comma. A thousands separator is written braced, 8{,}192,
//   and stays part of its number.
const path = require('path');
const temml = require(path.resolve(process.argv[2], 'temml', 'dist', 'temml.cjs'));

// \sym{name}{tex} tags a sub-expression; only data-sym attributes are trusted.
const trust = (ctx) => ctx.command === '\\data' && Object.keys(ctx.attributes).every((k) => k === 'data-sym');
const options = (display) => ({
  displayMode: display, throwOnError: true, trust, wrap: 'none',
  macros: { '\\sym': '\\data{sym=#1}{#2}' },
});

// TeX's break points, plus the comma between two formulas set side by side ("a = b,\quad c = d")
const BREAK_AFTER = new Set('=≠≈≡≤≥<>∈∉⊂⊆→←↦⇒⇐⇔⟹⟸⟺∝∼≃≅+−±∓×·⋅∘⊙⊗⊕∗∧∨∪∩,;'.split(''));
const OPENERS = new Set('([{⟨⌊⌈'.split(''));
const CLOSERS = new Set(')]}⟩⌋⌉'.split(''));
const SCRIPTS = new Set(['msub', 'msup', 'msubsup', 'munder', 'mover', 'munderover']);
const DESCENDERS = new Set('βγζημξρςφχψϕϱfgjpqy'.split(''));

const textOf = (node) => (node.children || []).map((c) => (c.text !== undefined ? c.text : textOf(c))).join('');
const isOperator = (node) => node.type === 'mo' && !node.attributes.form && !('movablelimits' in node.attributes);

function unspace(mo) {
  mo.setAttribute('lspace', '0');
  mo.setAttribute('rspace', '0');
}

function sizedFence(mo) {
  const size = mo.attributes.minsize;
  if (!mo.attributes.form) unspace(mo);
  if (size === mo.attributes.maxsize && parseFloat(size) < 2) {
    ['minsize', 'maxsize', 'symmetric'].forEach((a) => delete mo.attributes[a]);
    mo.setAttribute('stretchy', 'false');
    mo.style.fontSize = size;
  }
}

function liftSubscript(node) {
  const [base] = node.children;
  if (base && base.type === 'mi' && DESCENDERS.has(textOf(base))) {
    const Node = node.constructor;
    const padded = new Node('mpadded', [base]);
    padded.setAttribute('depth', '0');
    node.children[0] = padded;
  }
}

function repair(node, inScript) {
  if (node.type === 'msub' || node.type === 'msubsup') liftSubscript(node);
  if (node.type === 'mo' && 'minsize' in node.attributes) sizedFence(node);
  else if (inScript && node.type === 'mo' && !node.attributes.lspace) unspace(node);
  (node.children || []).forEach((child, i) => repair(child, inScript || (SCRIPTS.has(node.type) && i > 0)));
}

// The formula's top-level nodes. With wrap off, Temml's <math> holds either one node (a formula
// that is a single group) or a fragment holding one plain row of the top-level nodes.
function topLevel(math) {
  const [wrapper] = math.children;
  if (wrapper.type !== undefined) return [wrapper];
  const rows = wrapper.children;
  const plain = rows.length === 1 && rows[0].type === 'mrow' && Object.keys(rows[0].attributes).length === 0;
  return plain ? rows[0].children : rows;
}

function wrapRows(math) {
  const nodes = topLevel(math);
  const rows = [];
  let row = [];
  let depth = 0;  // brackets written as separate operators (\bigl( … \bigr)) hold their contents together
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    row.push(node);
    const text = node.type === 'mo' ? textOf(node) : '';
    depth += OPENERS.has(text) ? 1 : CLOSERS.has(text) ? -1 : 0;
    if (depth === 0 && isOperator(node) && BREAK_AFTER.has(text) && row.length > 1) {
      while (nodes[i + 1] && nodes[i + 1].type === 'mspace') row.push(nodes[++i]);  // the space after stays with it
      if (i === nodes.length - 1) break;
      node.setAttribute('form', 'infix');
      rows.push(row);
      row = [];
    }
  }
  if (row.length) rows.push(row);
  const Row = math.constructor;
  math.children = rows.length === 1 ? [new Row('mrow', rows[0])] : rows.map((r) => new Row('mrow', r));
}

// "(0,1)" → "(0\mathpunct{,}1)", outside \text{…} (in text a comma is just a character)
function punctuateDigitCommas(tex) {
  const fix = (part) => part.replace(/(\d),(?=\d)/g, '$1\\mathpunct{,}');
  const textGroup = /\\(?:text\w*|mbox)\s*\{/g;
  let out = '', from = 0, m;
  while ((m = textGroup.exec(tex))) {
    let end = textGroup.lastIndex;
    for (let depth = 1; end < tex.length && depth; end++) {
      if (tex[end] === '\\') end++;
      else depth += tex[end] === '{' ? 1 : tex[end] === '}' ? -1 : 0;
    }
    out += fix(tex.slice(from, m.index)) + tex.slice(m.index, end);
    from = textGroup.lastIndex = end;
  }
  return out + fix(tex.slice(from));
}

function render(tex, display) {
  const math = temml.__renderToMathMLTree(punctuateDigitCommas(tex), options(display));
  if (math.type !== 'math') throw new Error('Temml could not render this formula');
  repair(math, false);
  wrapRows(math);
  if (display) {
    delete math.attributes.display;
    math.style = {};
    math.classes = [];
    math.setAttribute('displaystyle', 'true');
    math.setAttribute('class', 'math-display');
  }
  return math.toMarkup();
}

function renderBatch(line) {
  return JSON.parse(line).map(({ tex, display }) => {
    try {
      return { html: render(tex, display) };
    } catch (e) {
      return { error: String(e.message || e).replace(/^Temml parse error: /, '').trim() };
    }
  });
}

require('readline').createInterface({ input: process.stdin })
  .on('line', (line) => process.stdout.write(JSON.stringify(renderBatch(line)) + '\n'));
