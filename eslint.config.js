// The browser code's linter (`npx eslint`, in the README's test command): ESLint's recommended
// rules on the theme's runtime and widgets and every project's components. They are plain
// scripts (no modules, no build step): each file is an IIFE that talks to the page through the
// globals the runtime defines.
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  // (the jsmin fixtures are inputs to the comment stripper, not code that runs)
  { ignores: ["node_modules/", "_site/", "**/.cache/", "examples/*/_site/", "tests/site/fixtures/"] },
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser, K3: "writable", K3W: "writable", Plotly: "readonly" },
    },
    // a view's callbacks take the runtime's arguments in order (render(state, prev, how)): one
    // that needs only the last still names the others
    rules: { "no-unused-vars": ["error", { args: "none" }] },
  },
  {
    files: ["eslint.config.js", "src/k3explainer/site/*.cjs", "src/k3explainer/theme/math-fonts/*.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
  },
];
