/**
 * Turns a picture on the page into a standalone SVG file: the element's markup with the styles the
 * page's stylesheets gave it written onto each element, so the file looks the same in slides, an
 * editor or a browser with no Warpscope stylesheet. Built as a string, never in the page: the CSP
 * forbids inline style attributes in the document, and nothing here touches the live DOM.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/** What decides how an SVG shape looks (geometry stays in its attributes). */
const SVG_PROPS = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'color',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'text-decoration-line',
  'paint-order',
  'visibility',
];

/** What decides how an HTML box looks, for panels that are not a single SVG. */
const HTML_PROPS = [
  'display',
  'box-sizing',
  'width',
  'height',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'border-top',
  'border-right',
  'border-bottom',
  'border-left',
  'border-radius',
  'background-color',
  'color',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'line-height',
  'text-align',
  'white-space',
  'vertical-align',
  'list-style-type',
  'text-decoration-line',
  'flex-direction',
  'flex-wrap',
  'justify-content',
  'align-items',
  'gap',
  'grid-template-columns',
  'grid-template-rows',
  'overflow',
  'opacity',
  'visibility',
  ...SVG_PROPS.filter((p) => p.startsWith('fill') || p.startsWith('stroke')),
];

/** Attributes that mean nothing in a file (focus order, the page's own inline styles, handlers). */
const DROPPED_ATTRS = new Set(['style', 'tabindex', 'contenteditable', 'data-export-skip']);

/** Elements a picture never needs. */
const DROPPED_TAGS = new Set(['script', 'style', 'link', 'template', 'noscript', 'iframe', 'canvas']);

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

export interface StandaloneSvg {
  /** The file's text. */
  readonly markup: string;
  /** The picture's size on screen, in CSS pixels (the file's width and height). */
  readonly width: number;
  readonly height: number;
}

const area = (e: Element) => {
  const r = e.getBoundingClientRect();
  return r.width * r.height;
};

/**
 * The main picture in `root`: `root` itself when it is an SVG, else its largest visible SVG (legend
 * swatches and icons are small; the export controls and their dialog do not count), else `root`
 * as it is (exported as HTML inside the SVG).
 */
export function mainPicture(root: Element): Element {
  if (root.namespaceURI === SVG_NS && root.localName === 'svg') return root;
  let best: Element | undefined;
  for (const svg of root.querySelectorAll('svg')) {
    if (svg.parentElement?.closest('svg')) continue; // nested: part of a bigger picture
    if (svg.closest('[data-export-skip]')) continue; // the export controls (and the dialog's QR code)
    const a = area(svg);
    if (a >= 48 * 48 && (!best || a > area(best))) best = svg;
  }
  return best ?? root;
}

/** The colour behind `el` on screen: its own or the nearest ancestor's opaque background. */
function backdrop(el: Element): string {
  for (let e: Element | null = el; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    if (bg && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) return bg;
  }
  return '#ffffff';
}

function styleOf(el: Element, props: readonly string[]): string {
  const cs = getComputedStyle(el);
  const parts: string[] = [];
  for (const p of props) {
    const v = cs.getPropertyValue(p);
    if (v !== '') parts.push(`${p}:${v}`);
  }
  return parts.join(';');
}

function isHidden(el: Element): boolean {
  return getComputedStyle(el).display === 'none' || el.hasAttribute('data-export-skip');
}

/** One element and what it holds, with its computed styles inlined. */
function serializeElement(el: Element, out: string[], svgContext: boolean): void {
  const tag = el.localName;
  if (DROPPED_TAGS.has(tag) || isHidden(el)) return;
  const inSvg = svgContext || (el.namespaceURI === SVG_NS && tag === 'svg');
  out.push(`<${tag}`);
  for (const attr of el.attributes) {
    const name = attr.name;
    if (DROPPED_ATTRS.has(name) || name.startsWith('on') || name === 'xmlns' || name.startsWith('xmlns:')) continue;
    out.push(` ${name}="${escapeAttr(attr.value)}"`);
  }
  // Form fields show their current value, not their markup default.
  if (el instanceof HTMLSelectElement || el instanceof HTMLInputElement) out.push(` data-value="${escapeAttr(el.value)}"`);
  const style = styleOf(el, inSvg ? SVG_PROPS : HTML_PROPS);
  if (style) out.push(` style="${escapeAttr(style)}"`);
  out.push('>');
  serializeChildren(el, out, inSvg);
  out.push(`</${tag}>`);
}

function serializeChildren(el: Element, out: string[], svgContext: boolean): void {
  for (const node of el.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) out.push(escapeText(node.textContent ?? ''));
    else if (node.nodeType === Node.ELEMENT_NODE) serializeElement(node as Element, out, svgContext);
  }
}

/**
 * A standalone SVG file of `root`'s main picture (see `mainPicture`), with a title and the backdrop
 * it has on screen. An SVG is copied shape by shape; an HTML panel goes inside a foreignObject.
 */
export function toStandaloneSvg(root: Element, title: string): StandaloneSvg {
  const picture = mainPicture(root);
  const box = picture.getBoundingClientRect();
  const width = Math.max(1, Math.round(box.width));
  const height = Math.max(1, Math.round(box.height));
  const bg = backdrop(picture);
  const out: string[] = [];
  const titleTag = `<title>${escapeText(title)}</title>`;
  if (picture.namespaceURI === SVG_NS) {
    const vb = (picture as SVGSVGElement).viewBox?.baseVal;
    const [x, y, w, h] = vb && vb.width > 0 && vb.height > 0 ? [vb.x, vb.y, vb.width, vb.height] : [0, 0, width, height];
    out.push(
      `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="${x} ${y} ${w} ${h}"`,
      ` style="${escapeAttr(styleOf(picture, SVG_PROPS))}">`,
      titleTag,
      `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${escapeAttr(bg)}"/>`,
    );
    serializeChildren(picture, out, true);
    out.push('</svg>');
  } else {
    out.push(
      `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
      titleTag,
      `<rect width="${width}" height="${height}" fill="${escapeAttr(bg)}"/>`,
      `<foreignObject x="0" y="0" width="${width}" height="${height}"><div xmlns="${XHTML_NS}">`,
    );
    serializeElement(picture, out, false);
    out.push('</div></foreignObject></svg>');
  }
  return { markup: out.join(''), width, height };
}

/** The same file drawn at `pixelWidth` (for rasterising): the root's size changes, the view box stays. */
export function resized(svg: StandaloneSvg, pixelWidth: number): { markup: string; width: number; height: number } {
  const scale = pixelWidth / svg.width;
  const width = Math.round(svg.width * scale);
  const height = Math.round(svg.height * scale);
  const markup = svg.markup.replace(/^<svg ([^>]*?)width="\d+" height="\d+"/, `<svg $1width="${width}" height="${height}"`);
  return { markup, width, height };
}
