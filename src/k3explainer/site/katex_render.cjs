// Renders a batch of formulas with KaTeX: stdin [{tex, display}] → stdout [{html} | {error}].
// Called by math.py: one process for the prose's and captions' formulas, one for a builder's.
const path = require('path');
const katex = require(path.resolve(process.argv[2], 'katex'));

// \sym{name}{tex} tags a sub-expression; only data-sym attributes are trusted.
const trust = (ctx) => ctx.command === '\\htmlData' && Object.keys(ctx.attributes).every((k) => k === 'data-sym');
const ERROR_COLOR = '#cc0001'; // sentinel: KaTeX paints some rejected input in this colour instead of throwing

const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = input.map(({ tex, display }) => {
  try {
    const html = katex.renderToString(tex, {
      displayMode: display, throwOnError: true, output: 'htmlAndMathml', trust, errorColor: ERROR_COLOR,
      macros: { '\\sym': '\\htmlData{sym=#1}{#2}' },
      strict: (code) => (code === 'htmlExtension' ? 'ignore' : 'error'),
    });
    return html.includes(ERROR_COLOR) ? { error: 'KaTeX could not render part of this formula' } : { html };
  } catch (e) {
    return { error: String(e.message || e).replace(/^KaTeX parse error: /, '') };
  }
});
process.stdout.write(JSON.stringify(out));
