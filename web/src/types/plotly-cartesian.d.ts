// plotly.js's cartesian bundle (bar, box, histogram, pie, scatter among others) has the API of the whole library,
// typed by @types/plotly.js; no types package of its own exists.
declare module 'plotly.js-cartesian-dist-min' {
  import * as Plotly from 'plotly.js';
  export = Plotly;
}
