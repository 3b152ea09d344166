import sharp from 'sharp';
import { IMAGE_WIDTHS } from '@hornada/domain/constants';

/** Where the pictures go: the app's storage (its StorageDriver), named here by the one call the renderer makes. */
export interface PictureStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
}

/**
 * Product photos drawn at seed time (no downloads): an SVG still life composed in code (a table top
 * in perspective, soft shadows, the item shaded with gradients, crumbs and props), rendered by sharp
 * with a film grain on top, saved as WebP in a few widths for srcset.
 */
export type Shape =
  | 'roll'
  | 'baguette'
  | 'boule'
  | 'tinloaf'
  | 'toast'
  | 'cheesebread'
  | 'ball'
  | 'horseshoe'
  | 'croissant'
  | 'ring'
  | 'braid'
  | 'cake'
  | 'slice'
  | 'layers'
  | 'bar'
  | 'cookie'
  | 'cup'
  | 'glass';

export interface ImageSpec {
  shape: Shape;
  /** Main colour of the item (crust, sponge, drink). */
  color: string;
  /** Accent (filling, topping, foam, cheese). */
  accent?: string;
  /** Table top. */
  table?: 'wood' | 'linen' | 'slate';
  /**
   * Per-shape detail: roll glazed|bran; cheesebread pale|bocadillo; cake orange|dark|frosted;
   * bar crackle|natilla; cookie chips|oats|sugar|butter|peanut; cup tinto|chocolate|capuchino;
   * glass lulo|mora|avena; boule/tinloaf seeds.
   */
  variant?: string;
}

export const WIDTHS = IMAGE_WIDTHS;
const W = 960;
const H = 720;

// ---------------------------------------------------------------------------------------------
// Small helpers

type Rnd = () => number;

/** Deterministic random numbers from a string (the same product always gets the same picture). */
function seeded(seed: string): Rnd {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lightens (amount > 0) towards white or darkens (amount < 0) towards black. */
function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const f = (c: number) => Math.max(0, Math.min(255, Math.round(c + (amount > 0 ? (255 - c) * amount : c * amount))));
  return rgb(f((n >> 16) & 255), f((n >> 8) & 255), f(n & 255));
}

function rgb(r: number, g: number, b: number): string {
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

const f1 = (n: number) => Math.round(n * 10) / 10;

type Stop = [offset: number, color: string, opacity?: number];

/**
 * librsvg draws an element with `opacity` through an offscreen layer the size of the picture; with
 * hundreds of translucent crumbs and speckles that was a third of the render time. A lone shape's
 * opacity equals fill-opacity (and stroke-opacity), which is drawn directly.
 */
function flattenOpacity(svg: string): string {
  return svg.replace(
    /<(ellipse|circle|rect|path|line)\b([^>]*?)\sopacity="([\d.]+)"([^>]*)>/g,
    (whole, tag: string, before: string, value: string, after: string) => {
      const attrs = before + after;
      if (/-opacity=/.test(attrs)) return whole;
      if (/fill="none"/.test(attrs)) return `<${tag}${before} stroke-opacity="${value}"${after}>`;
      if (!/stroke=/.test(attrs)) return `<${tag}${before} fill-opacity="${value}"${after}>`;
      return `<${tag}${before} fill-opacity="${value}" stroke-opacity="${value}"${after}>`;
    },
  );
}

/** Collects an SVG document: `defs` (gradients, clips) and the drawing, with unique ids. */
class Canvas {
  private defs: string[] = [];
  private body: string[] = [];
  private n = 0;
  constructor(readonly rnd: Rnd) {}

  add(...parts: string[]): void {
    this.body.push(...parts);
  }
  r(a: number, b: number): number {
    return a + (b - a) * this.rnd();
  }

  private stops(stops: Stop[]): string {
    return stops
      .map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}"${a === undefined ? '' : ` stop-opacity="${a}"`}/>`)
      .join('');
  }
  /** A radial gradient; coordinates in the shape's bounding box unless `user` is set. */
  radial(
    stops: Stop[],
    o: { cx?: number; cy?: number; r?: number; fx?: number; fy?: number; user?: boolean; transform?: string } = {},
  ): string {
    const id = `g${this.n++}`;
    const attrs = [
      `cx="${o.cx ?? 0.5}"`,
      `cy="${o.cy ?? 0.5}"`,
      `r="${o.r ?? 0.5}"`,
      o.fx === undefined ? '' : `fx="${o.fx}"`,
      o.fy === undefined ? '' : `fy="${o.fy}"`,
      o.user ? 'gradientUnits="userSpaceOnUse"' : '',
      o.transform ? `gradientTransform="${o.transform}"` : '',
    ].join(' ');
    this.defs.push(`<radialGradient id="${id}" ${attrs}>${this.stops(stops)}</radialGradient>`);
    return `url(#${id})`;
  }
  linear(stops: Stop[], x1: number, y1: number, x2: number, y2: number, user = false): string {
    const id = `g${this.n++}`;
    this.defs.push(
      `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"${user ? ' gradientUnits="userSpaceOnUse"' : ''}>${this.stops(stops)}</linearGradient>`,
    );
    return `url(#${id})`;
  }
  /** Registers a clip path from SVG shapes; returns the attribute to put on a group. */
  clip(shapes: string): string {
    const id = `c${this.n++}`;
    this.defs.push(`<clipPath id="${id}">${shapes}</clipPath>`);
    return `clip-path="url(#${id})"`;
  }
  raw(def: string): void {
    this.defs.push(def);
  }
  id(): string {
    return `d${this.n++}`;
  }
  toString(): string {
    const body = flattenOpacity(this.body.join(''));
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${this.defs.join('')}</defs>${body}</svg>`;
  }
}

/** A baked dome lit from the upper left: pale highlight, the crust colour, a dark rim. */
function dome(s: Canvas, c: string, gloss = 0.45): string {
  return s.radial(
    [
      [0, shade(c, gloss)],
      [0.3, shade(c, gloss * 0.35)],
      [0.68, c],
      [0.9, shade(c, -0.28)],
      [1, shade(c, -0.45)],
    ],
    { cx: 0.5, cy: 0.5, r: 0.62, fx: 0.36, fy: 0.3 },
  );
}

/** Darkens the lower part of a shape (`markup` without fill) so it reads as a volume resting on the table. */
function volume(s: Canvas, markup: string, strength = 0.4): string {
  const g = s.linear(
    [
      [0, '#1a0c03', 0],
      [0.5, '#1a0c03', 0],
      [1, '#1a0c03', strength],
    ],
    0,
    0,
    0,
    1,
  );
  return markup.replace('/>', ` fill="${g}"/>`);
}

/** Soft shadow on the table: a wide penumbra and a tight contact shadow. */
function shadow(s: Canvas, x: number, y: number, rx: number, ry: number, strength = 1): void {
  const soft = s.radial([
    [0, '#1a0d05', 0.45 * strength],
    [0.6, '#1a0d05', 0.2 * strength],
    [1, '#1a0d05', 0],
  ]);
  const contact = s.radial([
    [0, '#120803', 0.6 * strength],
    [0.75, '#120803', 0.35 * strength],
    [1, '#120803', 0],
  ]);
  s.add(
    `<ellipse cx="${x + rx * 0.08}" cy="${y + ry * 0.25}" rx="${rx * 1.18}" ry="${ry * 1.7}" fill="${soft}"/>`,
    `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry * 0.8}" fill="${contact}"/>`,
  );
}

/** Dots scattered inside an ellipse (crust speckles, seeds, sugar, flour). */
function dots(
  s: Canvas,
  x: number,
  y: number,
  rx: number,
  ry: number,
  n: number,
  draw: (px: number, py: number, i: number) => string,
  spread = 1,
): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    const a = s.r(0, Math.PI * 2);
    const d = Math.pow(s.rnd(), spread) * 0.95;
    out += draw(x + Math.cos(a) * rx * d, y + Math.sin(a) * ry * d, i);
  }
  return out;
}

/** A baker's score: the opened cut shows pale crumb with a dark lip on the upper side. */
function score(s: Canvas, x: number, y: number, len: number, width: number, angle: number, crust: string): string {
  const crumb = s.linear(
    [
      [0, '#7a4a22'],
      [0.35, '#d8b67c'],
      [1, '#f1ddb0'],
    ],
    0,
    0,
    0,
    1,
  );
  const h = len / 2;
  const w = width / 2;
  return `<g transform="translate(${f1(x)} ${f1(y)}) rotate(${f1(angle)})">
    <path d="M${-h} 0 Q 0 ${-w * 2.2} ${h} 0 Q 0 ${w * 1.3} ${-h} 0Z" fill="${crumb}"/>
    <path d="M${-h} 0 Q 0 ${-w * 2.2} ${h} 0" fill="none" stroke="${shade(crust, -0.45)}" stroke-width="${Math.max(2, width * 0.18)}" stroke-opacity="0.7"/>
    <path d="M${-h * 0.8} ${w * 0.35} Q 0 ${w * 1.1} ${h * 0.8} ${w * 0.35}" fill="none" stroke="${shade(crust, 0.35)}" stroke-width="${Math.max(2, width * 0.14)}" stroke-opacity="0.6"/>
  </g>`;
}

/** Speckles of darker and lighter crust on a shape (clipped to it). */
function crust(s: Canvas, clipShape: string, x: number, y: number, rx: number, ry: number, c: string, n = 60): string {
  const clip = s.clip(clipShape);
  const body = dots(
    s,
    x,
    y,
    rx,
    ry,
    n,
    (px, py, i) =>
      `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="${f1(s.r(1.5, 5))}" ry="${f1(s.r(1, 3))}" fill="${i % 3 ? shade(c, -0.35) : shade(c, 0.4)}" opacity="${f1(s.r(0.15, 0.4) * 10) / 10}"/>`,
    0.7,
  );
  return `<g ${clip}>${body}</g>`;
}

/** Crumbs on the table around an item. */
function crumbs(s: Canvas, x: number, y: number, rx: number, ry: number, c: string, n = 10): void {
  let out = '';
  for (let i = 0; i < n; i++) {
    const a = s.r(0, Math.PI * 2);
    const d = s.r(1.05, 1.45);
    const px = x + Math.cos(a) * rx * d;
    const py = y + Math.sin(a) * ry * d;
    const r = s.r(2, 6);
    out += `<ellipse cx="${f1(px + 2)}" cy="${f1(py + 2)}" rx="${f1(r)}" ry="${f1(r * 0.6)}" fill="#000" opacity="0.25"/>`;
    out += `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="${f1(r)}" ry="${f1(r * 0.7)}" fill="${shade(c, s.r(-0.2, 0.3))}"/>`;
  }
  s.add(out);
}

/** A white porcelain plate in perspective. */
function plate(s: Canvas, x: number, y: number, rx: number, ry: number): void {
  shadow(s, x, y + ry * 0.12, rx * 1.02, ry * 0.95, 0.8);
  const rim = s.radial(
    [
      [0, '#ffffff'],
      [0.75, '#f4f1ec'],
      [0.93, '#d9d3ca'],
      [1, '#b8b0a4'],
    ],
    { fx: 0.4, fy: 0.35 },
  );
  const well = s.radial(
    [
      [0, '#fbfaf7'],
      [0.8, '#efebe4'],
      [1, '#d8d1c6'],
    ],
    { fx: 0.45, fy: 0.4 },
  );
  s.add(
    `<ellipse cx="${x}" cy="${y + ry * 0.08}" rx="${rx}" ry="${ry}" fill="${shade('#cfc7bb', -0.1)}"/>`,
    `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="${rim}"/>`,
    `<ellipse cx="${x}" cy="${y + ry * 0.04}" rx="${rx * 0.72}" ry="${ry * 0.68}" fill="${well}"/>`,
    `<path d="M${x - rx * 0.85} ${y - ry * 0.35} A ${rx} ${ry} 0 0 1 ${x + rx * 0.2} ${y - ry * 0.97}" stroke="#fff" stroke-width="6" fill="none" opacity="0.7"/>`,
  );
}

/** A red and white checked napkin under bread. */
function napkin(s: Canvas, x: number, y: number, size: number): void {
  const id = s.id();
  s.raw(
    `<pattern id="${id}" width="44" height="44" patternUnits="userSpaceOnUse" patternTransform="rotate(18)"><rect width="44" height="44" fill="#f7f1e6"/><rect width="22" height="44" fill="#b3352c" opacity="0.55"/><rect width="44" height="22" fill="#b3352c" opacity="0.55"/></pattern>`,
  );
  const pts = [
    [x - size * 1.25, y + size * 0.05],
    [x - size * 0.1, y - size * 0.55],
    [x + size * 1.3, y - size * 0.15],
    [x + size * 0.2, y + size * 0.62],
  ];
  const d = `M${pts.map((p) => p.map(f1).join(' ')).join(' L')}Z`;
  const fold = s.linear(
    [
      [0, '#fff', 0.25],
      [0.5, '#000', 0],
      [0.52, '#000', 0.12],
      [1, '#000', 0.05],
    ],
    0,
    0,
    1,
    1,
  );
  s.add(
    `<path d="${d}" transform="translate(6 10)" fill="#000" opacity="0.18"/>`,
    `<path d="${d}" fill="url(#${id})"/>`,
    `<path d="${d}" fill="${fold}"/>`,
  );
}

// ---------------------------------------------------------------------------------------------
// Tables

function table(s: Canvas, kind: ImageSpec['table']): void {
  if (kind === 'slate') {
    s.add(
      `<rect width="${W}" height="${H}" fill="${s.linear(
        [
          [0, '#2f3338'],
          [1, '#454a50'],
        ],
        0,
        0,
        0.3,
        1,
      )}"/>`,
    );
    for (let i = 0; i < 14; i++) {
      const g = s.radial([
        [0, i % 2 ? '#5b6168' : '#25282c', 0.35],
        [1, '#000', 0],
      ]);
      s.add(
        `<ellipse cx="${f1(s.r(0, W))}" cy="${f1(s.r(0, H))}" rx="${f1(s.r(80, 260))}" ry="${f1(s.r(40, 140))}" fill="${g}"/>`,
      );
    }
    let scratches = '';
    for (let i = 0; i < 10; i++) {
      const x = s.r(0, W);
      const y = s.r(0, H);
      scratches += `<path d="M${f1(x)} ${f1(y)} l ${f1(s.r(40, 160))} ${f1(s.r(-20, 20))}" stroke="#9aa1a8" stroke-opacity="0.12" stroke-width="1.5"/>`;
    }
    s.add(scratches);
    return;
  }
  if (kind === 'linen') {
    s.add(
      `<rect width="${W}" height="${H}" fill="${s.linear(
        [
          [0, '#e9dfcf'],
          [0.6, '#f3ece0'],
          [1, '#e4d8c5'],
        ],
        0,
        0,
        0.2,
        1,
      )}"/>`,
    );
    let weave = '';
    for (let y = 0; y < H; y += 7) {
      weave += `<line x1="0" y1="${y}" x2="${W}" y2="${y + 3}" stroke="#8a7456" stroke-opacity="${y % 21 ? 0.05 : 0.09}" stroke-width="1.5"/>`;
    }
    for (let x = 0; x < W; x += 9) {
      weave += `<line x1="${x}" y1="0" x2="${x - 40}" y2="${H}" stroke="#fff" stroke-opacity="${x % 27 ? 0.1 : 0.16}" stroke-width="1.5"/>`;
    }
    s.add(weave);
    return;
  }
  // Wood: planks across, taller towards the camera, with grain and seams.
  const edges = [0, 95, 215, 365, 545, H];
  const base = '#b8763c';
  for (let i = 0; i < edges.length - 1; i++) {
    const y0 = edges[i]!;
    const y1 = edges[i + 1]!;
    const tint = shade(base, s.r(-0.18, 0.12));
    const fill = s.linear(
      [
        [0, shade(tint, 0.08)],
        [0.5, tint],
        [1, shade(tint, -0.12)],
      ],
      0,
      0,
      1,
      0.2,
    );
    let grain = '';
    const lines = Math.round((y1 - y0) / 11);
    for (let k = 0; k < lines; k++) {
      const y = y0 + ((k + 0.5) * (y1 - y0)) / lines + s.r(-3, 3);
      const amp = s.r(2, 7);
      grain += `<path d="M0 ${f1(y)} C ${f1(W * 0.25)} ${f1(y + amp)}, ${f1(W * 0.55)} ${f1(y - amp)}, ${W} ${f1(y + s.r(-4, 4))}" stroke="${k % 3 ? '#4a2a10' : '#d9a772'}" stroke-opacity="${k % 3 ? f1(s.r(0.08, 0.2) * 10) / 10 : 0.12}" stroke-width="${f1(s.r(1, 3.5))}" fill="none"/>`;
    }
    s.add(
      `<rect x="0" y="${y0}" width="${W}" height="${y1 - y0}" fill="${fill}"/>`,
      grain,
      `<rect x="0" y="${y1 - 3}" width="${W}" height="4" fill="#2b1606" opacity="0.55"/>`,
      `<rect x="0" y="${y1 + 1}" width="${W}" height="2" fill="#e2b584" opacity="0.25"/>`,
    );
  }
}

/** Light and depth over the whole picture: warm key light from the upper left, falloff and vignette. */
function lighting(s: Canvas): void {
  const key = s.radial(
    [
      [0, '#fff4dc', 0.22],
      [0.5, '#fff4dc', 0.08],
      [1, '#fff4dc', 0],
    ],
    { cx: 0.25, cy: 0.15, r: 0.75 },
  );
  const depth = s.linear(
    [
      [0, '#140a03', 0.3],
      [0.35, '#140a03', 0.05],
      [0.55, '#140a03', 0],
    ],
    0,
    0,
    0,
    1,
  );
  const vignette = s.radial(
    [
      [0, '#000', 0],
      [0.7, '#000', 0.04],
      [1, '#000', 0.32],
    ],
    { cx: 0.5, cy: 0.55, r: 0.75 },
  );
  s.add(
    `<rect width="${W}" height="${H}" fill="${key}"/>`,
    `<rect width="${W}" height="${H}" fill="${depth}"/>`,
    `<rect width="${W}" height="${H}" fill="${vignette}"/>`,
  );
}

// ---------------------------------------------------------------------------------------------
// Breads

function roll(s: Canvas, spec: ImageSpec, x: number, y: number, k: number): void {
  const c = spec.color;
  const rx = 165 * k;
  const ry = 112 * k;
  const rot = s.r(-14, 14);
  const ell = `<ellipse cx="0" cy="0" rx="${rx}" ry="${ry}"/>`;
  let g = `<g transform="translate(${f1(x)} ${f1(y)}) rotate(${f1(rot)})">`;
  g += `<ellipse cx="0" cy="${12 * k}" rx="${rx * 0.97}" ry="${ry}" fill="${shade(c, -0.4)}"/>`;
  g += `<ellipse cx="0" cy="0" rx="${rx}" ry="${ry}" fill="${dome(s, c, spec.variant === 'glazed' ? 0.6 : 0.4)}"/>`;
  g += volume(s, ell);
  g += crust(s, ell, 0, 0, rx, ry, c, spec.variant === 'bran' ? 140 : 50);
  if (spec.variant === 'glazed') {
    // A soft crease along the top and a sprinkle of sugar over the egg wash.
    g += `<path d="M${-rx * 0.55} ${-ry * 0.05} Q 0 ${-ry * 0.3} ${rx * 0.55} ${-ry * 0.05}" stroke="${shade(c, -0.35)}" stroke-width="${5 * k}" fill="none" opacity="0.5" stroke-linecap="round"/>`;
    g += dots(
      s,
      0,
      -ry * 0.15,
      rx * 0.7,
      ry * 0.55,
      45,
      (px, py) =>
        `<rect x="${f1(px)}" y="${f1(py)}" width="${f1(s.r(3, 5) * k)}" height="${f1(s.r(3, 5) * k)}" fill="#fffdf6" opacity="0.9" transform="rotate(${f1(s.r(0, 90))} ${f1(px)} ${f1(py)})"/>`,
      0.8,
    );
    g += `<ellipse cx="${-rx * 0.3}" cy="${-ry * 0.45}" rx="${rx * 0.28}" ry="${ry * 0.12}" fill="#fff" opacity="0.35" transform="rotate(-12)"/>`;
    g += `<ellipse cx="${-rx * 0.22}" cy="${-ry * 0.42}" rx="${rx * 0.1}" ry="${ry * 0.05}" fill="#fff" opacity="0.6" transform="rotate(-12)"/>`;
  } else if (spec.variant === 'bran') {
    const flour = s.radial([
      [0, '#fffaf0', 0.55],
      [1, '#fffaf0', 0],
    ]);
    g += `<ellipse cx="${-rx * 0.1}" cy="${-ry * 0.15}" rx="${rx * 0.65}" ry="${ry * 0.55}" fill="${flour}"/>`;
    g += score(s, 0, -ry * 0.05, rx * 1.1, 16 * k, -4, c);
  } else {
    g += score(s, 0, -ry * 0.08, rx * 1.3, 26 * k, -3, c);
  }
  g += '</g>';
  s.add(g);
}

function rolls(s: Canvas, spec: ImageSpec): void {
  shadow(s, 480, 500, 330, 70);
  roll(s, spec, 330, 350, 0.82);
  roll(s, spec, 640, 340, 0.8);
  roll(s, spec, 480, 470, 1);
  crumbs(s, 480, 470, 320, 150, spec.color, 12);
}

function baguette(s: Canvas, spec: ImageSpec, x: number, y: number, k: number, rot: number): void {
  const c = spec.color;
  const rx = 390 * k;
  const ry = 74 * k;
  const body = `<path d="M${-rx} 4 C ${-rx * 0.9} ${-ry * 1.25}, ${rx * 0.9} ${-ry * 1.25}, ${rx} -4 C ${rx * 0.9} ${ry * 1.2}, ${-rx * 0.9} ${ry * 1.2}, ${-rx} 4Z"/>`;
  let g = `<g transform="translate(${f1(x)} ${f1(y)}) rotate(${rot})">`;
  g += `<g transform="translate(0 ${18 * k})" fill="${shade(c, -0.5)}">${body}</g>`;
  g += body.replace('/>', ` fill="${dome(s, c, 0.4)}"/>`);
  g += crust(s, body, 0, 0, rx, ry, c, 90);
  for (let i = 0; i < 5; i++) {
    g += score(s, -rx * 0.62 + i * rx * 0.31, -ry * 0.1, 150 * k, 24 * k, -22, c);
  }
  g += '</g>';
  s.add(g);
}

function baguettes(s: Canvas, spec: ImageSpec): void {
  shadow(s, 480, 470, 380, 90);
  baguette(s, { ...spec, color: shade(spec.color, -0.08) }, 500, 320, 0.9, -8);
  baguette(s, spec, 470, 440, 1, -14);
  crumbs(s, 470, 440, 380, 130, spec.color, 14);
}

function boule(s: Canvas, spec: ImageSpec, x: number, y: number, k: number): void {
  const c = spec.color;
  const rx = 255 * k;
  const ry = 185 * k;
  shadow(s, x, y + ry * 0.55, rx * 1.05, ry * 0.45);
  const ell = `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}"/>`;
  s.add(`<ellipse cx="${x}" cy="${y + 30 * k}" rx="${rx * 0.97}" ry="${ry * 0.96}" fill="${shade(c, -0.42)}"/>`);
  s.add(`<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="${dome(s, c, 0.35)}"/>`);
  s.add(volume(s, ell, 0.3));
  s.add(crust(s, ell, x, y, rx, ry, c, 90));
  if (spec.variant === 'seeds') {
    s.add(seeds(s, x, y - ry * 0.05, rx * 0.85, ry * 0.8, 160));
  } else {
    const clip = s.clip(ell);
    const flour = s.radial([
      [0, '#fffdf7', 0.75],
      [0.6, '#fffdf7', 0.3],
      [1, '#fffdf7', 0],
    ]);
    s.add(
      `<g ${clip}><ellipse cx="${x - rx * 0.05}" cy="${y - ry * 0.05}" rx="${rx * 0.8}" ry="${ry * 0.75}" fill="${flour}"/>${dots(
        s,
        x,
        y,
        rx * 0.85,
        ry * 0.85,
        220,
        (px, py) =>
          `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(1, 3))}" fill="#fffdf7" opacity="${f1(s.r(0.3, 0.8) * 10) / 10}"/>`,
        1.4,
      )}</g>`,
    );
    s.add(
      score(s, x, y - ry * 0.02, rx * 1.25, 34 * k, -2, c),
      score(s, x - rx * 0.02, y + ry * 0.02, ry * 1.3, 30 * k, 84, c),
    );
  }
}

function seeds(s: Canvas, x: number, y: number, rx: number, ry: number, n: number): string {
  return dots(
    s,
    x,
    y,
    rx,
    ry,
    n,
    (px, py, i) => {
      const kind = i % 4;
      const color = kind === 0 ? '#3b2414' : kind === 1 ? '#d9cdb4' : kind === 2 ? '#f4ecd8' : '#8f8060';
      const [a, b] = kind === 0 ? [5, 3] : kind === 1 ? [10, 4] : kind === 2 ? [4, 2.4] : [8, 3.5];
      return `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="${a}" ry="${b}" fill="${color}" stroke="#2a1808" stroke-opacity="0.25" transform="rotate(${f1(s.r(0, 180))} ${f1(px)} ${f1(py)})"/>`;
    },
    0.8,
  );
}

function tinLoaf(s: Canvas, spec: ImageSpec): void {
  const c = spec.color;
  const x = 480;
  const y = 400;
  shadow(s, x + 10, y + 165, 300, 50);
  const side = s.linear(
    [
      [0, shade(c, -0.05)],
      [0.6, shade(c, -0.3)],
      [1, shade(c, -0.5)],
    ],
    0,
    0,
    0,
    1,
  );
  const end = s.linear(
    [
      [0, shade(c, -0.35)],
      [1, shade(c, -0.6)],
    ],
    0,
    0,
    1,
    0,
  );
  s.add(
    `<path d="M${x + 250} ${y - 40} L ${x + 320} ${y - 90} L ${x + 318} ${y + 100} L ${x + 252} ${y + 165} Z" fill="${end}"/>`,
    `<path d="M${x - 270} ${y - 40} L ${x - 262} ${y + 150} Q ${x - 260} ${y + 168} ${x - 240} ${y + 168} L ${x + 238} ${y + 168} Q ${x + 256} ${y + 168} ${x + 256} ${y + 150} L ${x + 262} ${y - 40} Z" fill="${side}"/>`,
  );
  // Crust texture on the side: faint horizontal bands from the tin.
  let bands = '';
  for (let i = 0; i < 6; i++) {
    bands += `<path d="M${x - 262} ${y + 10 + i * 26} L ${x + 256} ${y + 8 + i * 26}" stroke="${shade(c, 0.25)}" stroke-opacity="0.12" stroke-width="6"/>`;
  }
  s.add(bands);
  const top = `<path d="M${x - 285} ${y - 30} C ${x - 300} ${y - 175}, ${x - 120} ${y - 205}, ${x + 30} ${y - 200} C ${x + 210} ${y - 205}, ${x + 345} ${y - 160}, ${x + 330} ${y - 80} C ${x + 318} ${y - 30}, ${x + 280} ${y - 10}, ${x + 240} ${y - 8} L ${x - 250} ${y - 8} C ${x - 275} ${y - 10}, ${x - 285} ${y - 20}, ${x - 285} ${y - 30}Z"/>`;
  s.add(top.replace('/>', ` fill="${dome(s, c, 0.35)}"/>`));
  s.add(crust(s, top, x + 20, y - 110, 300, 100, c, 60));
  if (spec.variant === 'seeds') {
    const clip = s.clip(top);
    s.add(`<g ${clip}>${seeds(s, x + 20, y - 105, 300, 90, 240)}</g>`);
  }
  crumbs(s, x, y + 120, 330, 90, c, 10);
}

function toasts(s: Canvas, spec: ImageSpec): void {
  const c = spec.color;
  shadow(s, 480, 470, 330, 80);
  const slices = [
    [300, 380, -24],
    [420, 395, -8],
    [545, 400, 8],
    [665, 390, 22],
  ] as const;
  for (const [x, y, rot] of slices) {
    const path = `<path d="M-70 120 L -78 -60 C -90 -130, -30 -150, 0 -140 C 30 -150, 90 -130, 78 -60 L 70 120 Z"/>`;
    const crumb = s.radial(
      [
        [0, shade(c, 0.45)],
        [0.7, shade(c, 0.1)],
        [1, shade(c, -0.15)],
      ],
      { fx: 0.4, fy: 0.35 },
    );
    let g = `<g transform="translate(${x} ${y}) rotate(${rot}) scale(1 0.85)">`;
    g += `<g transform="translate(8 14)" fill="#2a1505" opacity="0.35">${path}</g>`;
    g += path.replace('/>', ` fill="${crumb}" stroke="${shade(c, -0.45)}" stroke-width="12" stroke-linejoin="round"/>`);
    g += `<g ${s.clip(path)}>${dots(s, 0, -10, 70, 120, 70, (px, py) => `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="${f1(s.r(1.5, 5))}" ry="${f1(s.r(1, 3))}" fill="${shade(c, -0.3)}" opacity="0.45"/>`)}</g>`;
    g += `<g ${s.clip(path)}>${dots(s, 0, -10, 70, 120, 30, (px, py) => `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(1, 2.5))}" fill="#fff8e6" opacity="0.7"/>`)}</g>`;
    g += '</g>';
    s.add(g);
  }
  crumbs(s, 480, 430, 320, 150, c, 16);
}

function cheeseBall(s: Canvas, spec: ImageSpec, x: number, y: number, k: number, round = false): void {
  const c = spec.color;
  const rx = 108 * k;
  const ry = (round ? 100 : 92) * k;
  const ell = `<ellipse cx="${f1(x)}" cy="${f1(y)}" rx="${f1(rx)}" ry="${f1(ry)}"/>`;
  s.add(`<ellipse cx="${f1(x)}" cy="${f1(y + 9 * k)}" rx="${f1(rx * 0.97)}" ry="${f1(ry)}" fill="${shade(c, -0.4)}"/>`);
  s.add(ell.replace('/>', ` fill="${dome(s, c, round ? 0.55 : 0.4)}"/>`));
  s.add(volume(s, ell, 0.3));
  const clip = s.clip(ell);
  const a = spec.accent ?? shade(c, 0.5);
  let blisters = '';
  if (round) {
    // Fried: tiny dark specks and a wet highlight.
    blisters += dots(
      s,
      x,
      y,
      rx,
      ry,
      80,
      (px, py) =>
        `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(1, 3))}" fill="${shade(c, -0.4)}" opacity="0.35"/>`,
      0.6,
    );
    blisters += `<ellipse cx="${f1(x - rx * 0.35)}" cy="${f1(y - ry * 0.45)}" rx="${f1(rx * 0.22)}" ry="${f1(ry * 0.12)}" fill="#fff" opacity="0.55" transform="rotate(-25 ${f1(x)} ${f1(y)})"/>`;
  } else {
    blisters += dots(
      s,
      x,
      y - ry * 0.1,
      rx * 0.9,
      ry * 0.8,
      12,
      (px, py, i) =>
        `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="${f1(s.r(4, 11) * k)}" ry="${f1(s.r(3, 7) * k)}" fill="${i % 3 ? a : shade(c, -0.3)}" opacity="${i % 3 ? 0.4 : 0.3}"/>`,
      0.7,
    );
  }
  if (spec.variant === 'bocadillo') {
    const guava = s.radial(
      [
        [0, '#d2524a'],
        [0.7, '#9c2a24'],
        [1, '#6d1713'],
      ],
      { fx: 0.35, fy: 0.3 },
    );
    blisters += `<ellipse cx="${f1(x + 4)}" cy="${f1(y - ry * 0.35)}" rx="${f1(rx * 0.3)}" ry="${f1(ry * 0.2)}" fill="${guava}"/><ellipse cx="${f1(x - rx * 0.05)}" cy="${f1(y - ry * 0.42)}" rx="${f1(rx * 0.1)}" ry="${f1(ry * 0.05)}" fill="#fff" opacity="0.5"/>`;
  }
  s.add(`<g ${clip}>${blisters}</g>`);
}

function cheeseBreads(s: Canvas, spec: ImageSpec): void {
  napkin(s, 480, 430, 300);
  shadow(s, 480, 480, 300, 80, 0.9);
  const pale = spec.variant === 'pale';
  const spots: [number, number, number][] = [
    [360, 360, 0.9],
    [595, 350, 0.92],
    [480, 330, 0.85],
    [300, 470, 1],
    [490, 490, 1.05],
    [675, 460, 1],
  ];
  for (const [x, y, k] of spots) cheeseBall(s, spec, x, y, k * (pale ? 1.05 : 1));
  crumbs(s, 480, 440, 330, 130, spec.color, 8);
}

function fritters(s: Canvas, spec: ImageSpec): void {
  plate(s, 480, 450, 350, 150);
  const spots: [number, number, number][] = [
    [390, 380, 0.85],
    [570, 375, 0.85],
    [300, 460, 0.95],
    [480, 470, 1],
    [660, 455, 0.95],
  ];
  for (const [x, y, k] of spots) cheeseBall(s, spec, x, y, k, true);
}

function horseshoe(s: Canvas, spec: ImageSpec, x: number, y: number, k: number, rot: number): void {
  const c = spec.color;
  const R = 105;
  const w = 64;
  const a0 = (155 * Math.PI) / 180;
  const a1 = (25 * Math.PI) / 180;
  const d = `M${f1(R * Math.cos(a0))} ${f1(R * Math.sin(a0))} A ${R} ${R} 0 1 1 ${f1(R * Math.cos(a1))} ${f1(R * Math.sin(a1))}`;
  const inner = (R - w / 2) / (R + w / 2);
  const tube = s.radial(
    [
      [0, shade(c, -0.5)],
      [inner, shade(c, -0.45)],
      [inner + (1 - inner) * 0.35, shade(c, 0.4)],
      [inner + (1 - inner) * 0.6, c],
      [1, shade(c, -0.5)],
    ],
    { cx: 0, cy: 0, r: R + w / 2, user: true },
  );
  const light = s.linear(
    [
      [0, '#fff', 0.3],
      [0.5, '#fff', 0],
      [1, '#000', 0.25],
    ],
    -R,
    -R,
    R,
    R,
    true,
  );
  let g = `<g transform="translate(${x} ${y}) rotate(${rot}) scale(${k} ${k * 0.7})">`;
  g += `<path d="${d}" transform="translate(0 22)" stroke="${shade(c, -0.55)}" stroke-width="${w}" stroke-linecap="round" fill="none"/>`;
  g += `<path d="${d}" stroke="${tube}" stroke-width="${w}" stroke-linecap="round" fill="none"/>`;
  g += `<path d="${d}" stroke="${light}" stroke-width="${w}" stroke-linecap="round" fill="none"/>`;
  g += `<path d="${d}" stroke="${shade(c, 0.5)}" stroke-width="6" stroke-linecap="round" fill="none" opacity="0.35" transform="translate(-4 -8)"/>`;
  g += '</g>';
  s.add(g);
}

function horseshoes(s: Canvas, spec: ImageSpec): void {
  shadow(s, 480, 480, 330, 80);
  horseshoe(s, spec, 330, 380, 0.95, -20);
  horseshoe(s, spec, 640, 370, 0.95, 15);
  horseshoe(s, spec, 485, 480, 1.15, -4);
  crumbs(s, 480, 450, 330, 130, spec.color, 10);
}

function croissant(s: Canvas, spec: ImageSpec, x: number, y: number, k: number, rot: number): void {
  const c = spec.color;
  // A crescent around O = (0, 0): thick in the middle, tapering to the tips, opening downwards.
  const R = 165;
  const wMax = 175;
  const wMin = 34;
  const from = Math.PI * 1.02;
  const to = Math.PI * 1.98;
  const at = (t: number, side: number) => {
    const ang = from + (to - from) * t;
    const w = wMin + (wMax - wMin) * Math.pow(Math.sin(Math.PI * t), 0.8);
    const r = R + (side * w) / 2;
    return [r * Math.cos(ang), r * Math.sin(ang)] as const;
  };
  const N = 40;
  const outer = Array.from({ length: N + 1 }, (_, i) => at(i / N, 1));
  const inner = Array.from({ length: N + 1 }, (_, i) => at(1 - i / N, -1));
  const d = `M${[...outer, ...inner].map(([px, py]) => `${f1(px)} ${f1(py)}`).join(' L')}Z`;
  const body = `<path d="${d}"/>`;
  // Shaded like a tube around the arc: dark inner and outer edges, light just outside the middle.
  const ri = (R - wMax / 2) / (R + wMax / 2);
  const tube = s.radial(
    [
      [0, shade(c, -0.55)],
      [ri, shade(c, -0.5)],
      [ri + (1 - ri) * 0.25, shade(c, -0.1)],
      [ri + (1 - ri) * 0.55, shade(c, 0.28)],
      [ri + (1 - ri) * 0.8, shade(c, -0.05)],
      [1, shade(c, -0.5)],
    ],
    { cx: 0, cy: 0, r: R + wMax / 2, user: true },
  );
  const light = s.linear(
    [
      [0, '#fff', 0.18],
      [0.45, '#fff', 0],
      [1, '#000', 0.35],
    ],
    -R,
    -R - 60,
    R * 0.8,
    40,
    true,
  );
  let g = `<g transform="translate(${x} ${y}) rotate(${rot}) scale(${k} ${k * 0.72})">`;
  g += `<path d="${d}" transform="translate(0 16)" fill="${shade(c, -0.38)}"/>`;
  g += body.replace('/>', ` fill="${tube}"/>`);
  // Rolled layers: a bulge per band, then the seam between bands, curving towards the middle.
  const clip = s.clip(body);
  let bands = '';
  const n = 7;
  for (let i = 0; i < n; i++) {
    const t = (i + 0.5) / n;
    const [ox, oy] = at(t, 1);
    const [ix, iy] = at(t, -1);
    const mx = (ox + ix) / 2;
    const my = (oy + iy) / 2;
    const len = Math.hypot(ox - ix, oy - iy);
    const deg = (Math.atan2(oy - iy, ox - ix) * 180) / Math.PI;
    bands += `<ellipse cx="${f1(mx)}" cy="${f1(my)}" rx="${f1(len * 0.45)}" ry="${f1(len * 0.16 + 6)}" fill="${shade(c, 0.35)}" opacity="0.2" transform="rotate(${f1(deg)} ${f1(mx)} ${f1(my)})"/>`;
  }
  for (let i = 1; i < n; i++) {
    const t = i / n;
    const [ox, oy] = at(t, 1.1);
    const [ix, iy] = at(t, -1.1);
    const bend = (t < 0.5 ? 1 : -1) * 0.06;
    const [cx, cy] = at(t + bend, 0);
    const path = `M${f1(ox)} ${f1(oy)} Q ${f1(cx)} ${f1(cy)} ${f1(ix)} ${f1(iy)}`;
    bands += `<path d="${path}" stroke="${shade(c, -0.55)}" stroke-width="8" fill="none" opacity="0.6"/>`;
    bands += `<path d="${path}" transform="translate(-6 -3)" stroke="#f6dfae" stroke-width="4" fill="none" opacity="0.75"/>`;
  }
  g += `<g ${clip}>${bands}</g>`;
  g += body.replace('/>', ` fill="${light}"/>`);
  g += '</g>';
  s.add(g);
}

function croissants(s: Canvas, spec: ImageSpec): void {
  shadow(s, 480, 470, 350, 90);
  croissant(s, { ...spec, color: shade(spec.color, -0.06) }, 600, 400, 0.75, 14);
  croissant(s, spec, 420, 520, 1, -8);
  crumbs(s, 480, 440, 350, 140, spec.color, 14);
}

/** A braided ring (roscón): a torus shaded like a tube, twisted seams, arequipe and sugar. */
function ringBread(s: Canvas, spec: ImageSpec): void {
  const c = spec.color;
  const a = spec.accent ?? '#7a4a1e';
  const R = 205;
  const w = 175;
  const sq = 0.58;
  const x = 480;
  const y = 395;
  shadow(s, x, y + 60, 330, 150, 0.9);
  const ri = (R - w / 2) / (R + w / 2);
  const tube = s.radial(
    [
      [0, shade(c, -0.5)],
      [ri, shade(c, -0.4)],
      [ri + (1 - ri) * 0.3, c],
      [ri + (1 - ri) * 0.5, shade(c, 0.3)],
      [ri + (1 - ri) * 0.78, c],
      [1, shade(c, -0.45)],
    ],
    { cx: 0, cy: 0, r: R + w / 2, user: true },
  );
  const light = s.linear(
    [
      [0, '#fff', 0.25],
      [0.5, '#fff', 0],
      [1, '#000', 0.3],
    ],
    -R,
    -R,
    R,
    R,
    true,
  );
  let g = `<g transform="translate(${x} ${y}) scale(1 ${sq})">`;
  g += `<circle r="${R}" transform="translate(0 ${16 / sq})" fill="none" stroke="${shade(c, -0.5)}" stroke-width="${w}"/>`;
  g += `<circle r="${R}" fill="none" stroke="${tube}" stroke-width="${w}"/>`;
  // Twisted strands: curved seams across the tube, alternating, with a pale edge beside each.
  const ro = R + w / 2;
  const rin = R - w / 2;
  const annulus = `<path fill-rule="evenodd" clip-rule="evenodd" d="M${-ro} 0 a ${ro} ${ro} 0 1 0 ${ro * 2} 0 a ${ro} ${ro} 0 1 0 ${-ro * 2} 0Z M${-rin} 0 a ${rin} ${rin} 0 1 0 ${rin * 2} 0 a ${rin} ${rin} 0 1 0 ${-rin * 2} 0Z"/>`;
  const clip = s.clip(annulus);
  let seams = '';
  const n = 13;
  for (let i = 0; i < n; i++) {
    const t = (i / n) * Math.PI * 2;
    const p = (r: number, ang: number) => `${f1(r * Math.cos(ang))} ${f1(r * Math.sin(ang))}`;
    const d = `M${p(R - w / 2 - 4, t - 0.12)} C ${p(R - w / 4, t + 0.1)} ${p(R + w / 4, t + 0.1)} ${p(R + w / 2 + 4, t + 0.3)}`;
    seams += `<path d="${d}" stroke="${shade(c, -0.4)}" stroke-width="12" fill="none" opacity="0.5"/>`;
    seams += `<path d="${d}" transform="rotate(-3)" stroke="${shade(c, 0.4)}" stroke-width="10" fill="none" opacity="0.25"/>`;
  }
  g += `<g ${clip}>${seams}</g>`;
  g += `<circle r="${R}" fill="none" stroke="${light}" stroke-width="${w}"/>`;
  // A drizzle of arequipe across the top.
  const pts: [number, number][] = [];
  for (let i = 0; i < 30; i++) {
    const t = (i / 30) * Math.PI * 2 + s.r(-0.05, 0.05);
    const r = R + (i % 2 ? 1 : -1) * s.r(0.18, 0.34) * w;
    pts.push([r * Math.cos(t), r * Math.sin(t)]);
  }
  // A smooth closed curve through the midpoints, the points as controls.
  const mid = (i: number) => {
    const p = pts[i % pts.length]!;
    const q = pts[(i + 1) % pts.length]!;
    return `${f1((p[0] + q[0]) / 2)} ${f1((p[1] + q[1]) / 2)}`;
  };
  let zig = `M${mid(0)}`;
  for (let i = 1; i <= pts.length; i++) {
    const p = pts[i % pts.length]!;
    zig += ` Q ${f1(p[0])} ${f1(p[1])} ${mid(i)}`;
  }
  g += `<path d="${zig}" transform="translate(0 ${6 / sq})" stroke="#000" stroke-opacity="0.2" stroke-width="9" fill="none" stroke-linejoin="round"/>`;
  g += `<path d="${zig}" stroke="${a}" stroke-width="9" fill="none" stroke-linejoin="round"/>`;
  g += `<path d="${zig}" transform="translate(-1.5 -2.5)" stroke="${shade(a, 0.55)}" stroke-width="2.5" fill="none" opacity="0.7" stroke-linejoin="round"/>`;
  // Sugar crystals.
  let sugar = '';
  for (let i = 0; i < 260; i++) {
    const t = s.r(0, Math.PI * 2);
    const r = R + s.r(-0.42, 0.42) * w;
    const px = r * Math.cos(t);
    const py = r * Math.sin(t);
    sugar += `<rect x="${f1(px)}" y="${f1(py)}" width="${f1(s.r(3, 6))}" height="${f1(s.r(3, 6))}" fill="#fffdf6" opacity="${f1(s.r(0.6, 1) * 10) / 10}" transform="rotate(${f1(s.r(0, 90))} ${f1(px)} ${f1(py)})"/>`;
  }
  g += sugar;
  g += '</g>';
  s.add(g);
  crumbs(s, x, y + 20, 340, 180, c, 10);
}

/** A braided loaf (trenza): overlapping diagonal lobes with the filling peeking between them. */
function braid(s: Canvas, spec: ImageSpec): void {
  const c = spec.color;
  const a = spec.accent ?? '#a3372b';
  shadow(s, 480, 450, 360, 80);
  s.add(
    `<path d="M215 430 L 765 350" stroke="${shade(c, -0.45)}" stroke-width="100" stroke-linecap="round"/>`,
    `<path d="M215 420 L 765 340" stroke="${shade(a, -0.2)}" stroke-width="56" stroke-linecap="round"/>`,
    `<path d="M215 420 L 765 340" stroke="#f4e2a8" stroke-width="22" stroke-linecap="round" stroke-dasharray="26 34"/>`,
  );
  const lobe = s.radial(
    [
      [0, shade(c, 0.32)],
      [0.55, shade(c, 0.05)],
      [0.85, c],
      [1, shade(c, -0.3)],
    ],
    { fx: 0.4, fy: 0.32, r: 0.6 },
  );
  const n = 11;
  for (let i = 0; i < n; i++) {
    const t = i / (n - 1);
    const taper = 0.72 + 0.28 * Math.sin(Math.PI * t);
    const side = i % 2 ? 1 : -1;
    const x = 215 + 550 * t + side * 6;
    const y = 420 - 80 * t + side * 20 * taper;
    const rot = `transform="rotate(${f1(-8 + side * 40)} ${f1(x)} ${f1(y)})"`;
    s.add(
      `<ellipse cx="${f1(x)}" cy="${f1(y)}" rx="${f1(84 * taper)}" ry="${f1(52 * taper)}" fill="${lobe}" stroke="${shade(c, -0.3)}" stroke-width="2" stroke-opacity="0.4" ${rot}/>`,
      `<ellipse cx="${f1(x - 12)}" cy="${f1(y - 12)}" rx="${f1(29 * taper)}" ry="7" fill="#fff" opacity="0.3" ${rot}/>`,
    );
  }
  crumbs(s, 490, 380, 330, 110, c, 10);
}

// ---------------------------------------------------------------------------------------------
// Cakes and desserts

function cake(s: Canvas, spec: ImageSpec): void {
  const c = spec.color;
  const a = spec.accent ?? '#e88a2e';
  const x = 480;
  const rx = 255;
  const ry = 88;
  const top = 285;
  const h = 165;
  // Cake stand.
  plate(s, x, top + h + 20, 330, 112);
  const frosted = spec.variant === 'frosted';
  const sideColor = frosted ? '#f3ead9' : c;
  const side = s.linear(
    [
      [0, shade(sideColor, -0.45)],
      [0.22, shade(sideColor, 0.2)],
      [0.55, sideColor],
      [0.85, shade(sideColor, -0.3)],
      [1, shade(sideColor, -0.5)],
    ],
    0,
    0,
    1,
    0,
  );
  s.add(
    `<path d="M${x - rx} ${top} L ${x - rx} ${top + h} A ${rx} ${ry} 0 0 0 ${x + rx} ${top + h} L ${x + rx} ${top} Z" fill="${side}"/>`,
  );
  if (frosted) {
    // Semi-naked: cake shows through the frosting in streaks.
    let streaks = '';
    for (let i = 0; i < 7; i++) {
      const yy = top + 25 + i * 22;
      streaks += `<path d="M${x - rx + 10} ${yy} Q ${x} ${yy + ry * 0.9} ${x + rx - 10} ${yy}" stroke="${c}" stroke-width="${f1(s.r(3, 9))}" fill="none" opacity="${f1(s.r(0.2, 0.45) * 10) / 10}"/>`;
    }
    s.add(streaks);
  } else {
    // Crumb texture on the side.
    const clip = s.clip(`<rect x="${x - rx}" y="${top}" width="${rx * 2}" height="${h + ry}"/>`);
    s.add(
      `<g ${clip}>${dots(s, x, top + h * 0.6, rx, h * 0.6, 110, (px, py) => `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="${f1(s.r(1.5, 4))}" ry="${f1(s.r(1, 2.5))}" fill="${shade(c, -0.35)}" opacity="0.35"/>`)}</g>`,
    );
  }
  const topColor = frosted ? '#f3ead9' : spec.variant === 'dark' ? shade(c, 0.08) : a;
  const topFill = s.radial(
    [
      [0, shade(topColor, 0.35)],
      [0.7, topColor],
      [1, shade(topColor, -0.25)],
    ],
    { fx: 0.35, fy: 0.3 },
  );
  s.add(`<ellipse cx="${x}" cy="${top}" rx="${rx}" ry="${ry}" fill="${topFill}"/>`);
  if (spec.variant === 'orange') {
    // Glaze drips over the edge and candied orange slices.
    let drips = '';
    for (let i = 0; i < 11; i++) {
      const t = Math.PI * (0.08 + (0.84 * i) / 10);
      const dx = x - rx * Math.cos(t);
      const dy = top + ry * Math.sin(t);
      const len = s.r(20, 70);
      drips += `<path d="M${f1(dx - 12)} ${f1(dy - 4)} L ${f1(dx - 8)} ${f1(dy + len)} Q ${f1(dx)} ${f1(dy + len + 14)} ${f1(dx + 8)} ${f1(dy + len)} L ${f1(dx + 12)} ${f1(dy - 4)}Z" fill="${shade(a, 0.2)}" opacity="0.9"/>`;
    }
    s.add(drips);
    for (let i = 0; i < 7; i++) {
      const t = (i / 7) * Math.PI * 2;
      const ox = x + rx * 0.62 * Math.cos(t);
      const oy = top + ry * 0.58 * Math.sin(t);
      s.add(orangeSlice(s, ox, oy, 38));
    }
    s.add(orangeSlice(s, x, top, 44));
  } else if (spec.variant === 'dark') {
    // Glossy dark top with cherries, raisins and almonds.
    s.add(
      `<ellipse cx="${x - 70}" cy="${top - 30}" rx="120" ry="22" fill="#fff" opacity="0.12"/>`,
      dots(s, x, top, rx * 0.85, ry * 0.8, 26, (px, py, i) =>
        i % 3 === 0
          ? `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="14" ry="6" fill="#e8d6b0" stroke="#9c7a4c" stroke-width="1.5" transform="rotate(${f1(s.r(0, 180))} ${f1(px)} ${f1(py)})"/>`
          : i % 3 === 1
            ? `<circle cx="${f1(px)}" cy="${f1(py)}" r="12" fill="${s.radial(
                [
                  [0, '#ff6a5a'],
                  [0.6, a],
                  [1, shade(a, -0.5)],
                ],
                { fx: 0.35, fy: 0.3 },
              )}"/>`
            : `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="9" ry="6" fill="#2a120c"/>`,
      ),
    );
  } else if (frosted) {
    // Piped rosettes with walnut halves.
    for (let i = 0; i < 10; i++) {
      const t = (i / 10) * Math.PI * 2;
      const ox = x + rx * 0.78 * Math.cos(t);
      const oy = top + ry * 0.72 * Math.sin(t);
      const rose = s.radial(
        [
          [0, '#ffffff'],
          [0.7, '#f3ead9'],
          [1, '#cbbda3'],
        ],
        { fx: 0.35, fy: 0.3 },
      );
      s.add(
        `<ellipse cx="${f1(ox)}" cy="${f1(oy - 10)}" rx="26" ry="20" fill="${rose}"/>`,
        `<path d="M${f1(ox - 14)} ${f1(oy - 12)} q 14 -14 28 0" stroke="#d8cbb2" stroke-width="3" fill="none"/>`,
        `<ellipse cx="${f1(ox)}" cy="${f1(oy - 22)}" rx="13" ry="8" fill="#8a5a2e" stroke="#5a3416" stroke-width="2"/>`,
      );
    }
    s.add(
      dots(
        s,
        x,
        top,
        rx * 0.5,
        ry * 0.45,
        30,
        (px, py) =>
          `<rect x="${f1(px)}" y="${f1(py)}" width="${f1(s.r(6, 12))}" height="3" fill="${a}" transform="rotate(${f1(s.r(0, 180))} ${f1(px)} ${f1(py)})"/>`,
      ),
    );
  }
}

function orangeSlice(s: Canvas, x: number, y: number, r: number): string {
  const flesh = s.radial([
    [0, '#ffd27a'],
    [0.8, '#f2a33a'],
    [1, '#e07f1c'],
  ]);
  let seg = '';
  for (let i = 0; i < 8; i++) {
    const t = (i / 8) * Math.PI * 2;
    seg += `<line x1="${f1(x)}" y1="${f1(y)}" x2="${f1(x + Math.cos(t) * r * 0.78)}" y2="${f1(y + Math.sin(t) * r * 0.36)}" stroke="#ffe9b8" stroke-width="2.5"/>`;
  }
  return `<ellipse cx="${f1(x)}" cy="${f1(y + 4)}" rx="${r}" ry="${r * 0.42}" fill="#b85a10"/><ellipse cx="${f1(x)}" cy="${f1(y)}" rx="${r}" ry="${r * 0.42}" fill="#e8821c"/><ellipse cx="${f1(x)}" cy="${f1(y)}" rx="${r * 0.86}" ry="${r * 0.36}" fill="${flesh}"/>${seg}`;
}

/** A slice of layered cake on a plate: the cut face shows the layers. */
function slice(s: Canvas, spec: ImageSpec): void {
  const c = spec.color;
  const a = spec.accent ?? '#fff7e8';
  plate(s, 480, 455, 360, 150);
  // Milk pool around the slice.
  const pool = s.radial([
    [0, '#fbf1d8'],
    [0.8, '#f3e3bd'],
    [1, '#e9d3a3'],
  ]);
  s.add(`<ellipse cx="485" cy="478" rx="270" ry="82" fill="${pool}"/>`);
  const A = [255, 420];
  const B = [560, 285];
  const C = [725, 395];
  const h = 140;
  const lerp = (p: number[], q: number[], t: number) => [p[0]! + (q[0]! - p[0]!) * t, p[1]! + (q[1]! - p[1]!) * t];
  const face = (t0: number, t1: number) => {
    const p0 = [A[0]!, A[1]! + h * t0];
    const p1 = [C[0]!, C[1]! + h * t0];
    const p2 = [C[0]!, C[1]! + h * t1];
    const p3 = [A[0]!, A[1]! + h * t1];
    return `M${p0.join(' ')} L ${p1.join(' ')} L ${p2.join(' ')} L ${p3.join(' ')}Z`;
  };
  const sponge = s.linear(
    [
      [0, shade(c, 0.15)],
      [1, shade(c, -0.12)],
    ],
    0,
    0,
    1,
    0,
  );
  const layers: [number, number, string][] = [
    [0, 0.22, a],
    [0.22, 0.54, c],
    [0.54, 0.62, shade(c, 0.5)],
    [0.62, 1, c],
  ];
  // Right side of the slice (the curved crust) peeking out behind the cut face.
  s.add(
    `<path d="M${C.join(' ')} Q 690 300 ${B.join(' ')} L ${B[0]} ${B[1]! + h * 0.6} Q 720 330 ${C[0]} ${C[1]! + h} Z" fill="${shade(c, -0.35)}"/>`,
  );
  for (const [t0, t1, col] of layers) {
    s.add(`<path d="${face(t0, t1)}" fill="${col === c ? sponge : col}"/>`);
  }
  // The sponge is soaked: darker and wetter towards the bottom.
  const soak = s.linear(
    [
      [0, shade(c, -0.3), 0],
      [0.5, shade(c, -0.3), 0.15],
      [1, shade(c, -0.35), 0.55],
    ],
    0,
    0,
    0,
    1,
  );
  s.add(`<path d="${face(0.22, 1)}" fill="${soak}"/>`);
  // Pores in the sponge.
  const clip = s.clip(`<path d="${face(0.22, 1)}"/>`);
  s.add(
    `<g ${clip}>${dots(s, 490, 470, 240, 70, 160, (px, py) => `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="${f1(s.r(1.5, 4))}" ry="${f1(s.r(1, 2.5))}" fill="${shade(c, -0.25)}" opacity="0.5"/>`)}</g>`,
  );
  // Top: meringue with toasted peaks.
  const topPath = `M${A.join(' ')} L ${B.join(' ')} Q 690 300 ${C.join(' ')} Z`;
  const meringue = s.radial(
    [
      [0, '#ffffff'],
      [0.7, a],
      [1, shade(a, -0.15)],
    ],
    { fx: 0.4, fy: 0.3 },
  );
  s.add(`<path d="${topPath}" fill="${meringue}" stroke="${shade(a, -0.1)}" stroke-width="3"/>`);
  const topClip = s.clip(`<path d="${topPath}"/>`);
  s.add(
    `<g ${topClip}>${dots(
      s,
      540,
      360,
      190,
      60,
      10,
      (px, py) =>
        `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="${f1(s.r(10, 22))}" ry="${f1(s.r(5, 9))}" fill="${s.radial([
          [0, '#c98a45', 0.7],
          [1, '#e8c08a', 0],
        ])}"/>`,
    )}${dots(s, 530, 355, 170, 55, 90, (px, py) => `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(0.8, 2))}" fill="#8a4f22" opacity="0.55"/>`)}</g>`,
  );
  // Wavy meringue edge along the cut.
  let wave = `M${A.join(' ')}`;
  for (let i = 1; i <= 12; i++) {
    const [px, py] = lerp(A, C, i / 12);
    wave += ` Q ${f1(px! - 20)} ${f1(py! + h * 0.2 + (i % 2 ? 14 : 4))} ${f1(px!)} ${f1(py! + h * 0.2)}`;
  }
  s.add(`<path d="${wave}" stroke="${shade(a, -0.08)}" stroke-width="5" fill="none"/>`);
}

/** A box seen from above and to the front: top, front and right faces (milhoja, brownie, natilla). */
function box(
  s: Canvas,
  x: number,
  y: number,
  w: number,
  d: number,
  h: number,
  faces: { top: string; front: string; side: string },
): { top: string; front: string } {
  const dx = d * 0.55;
  const dy = d * 0.6;
  const top = `M${x} ${y} L ${x + dx} ${y - dy} L ${x + w + dx} ${y - dy} L ${x + w} ${y}Z`;
  const front = `M${x} ${y} L ${x + w} ${y} L ${x + w} ${y + h} L ${x} ${y + h}Z`;
  const side = `M${x + w} ${y} L ${x + w + dx} ${y - dy} L ${x + w + dx} ${y - dy + h} L ${x + w} ${y + h}Z`;
  s.add(
    `<path d="${side}" fill="${faces.side}"/>`,
    `<path d="${front}" fill="${faces.front}"/>`,
    `<path d="${top}" fill="${faces.top}"/>`,
  );
  return { top, front };
}

function layers(s: Canvas, spec: ImageSpec): void {
  const c = spec.color;
  const a = spec.accent ?? '#f7ecd6';
  plate(s, 480, 450, 360, 150);
  shadow(s, 500, 505, 260, 40);
  const x = 270;
  const y = 350;
  const w = 400;
  const h = 150;
  const { top, front } = box(s, x, y, w, 150, h, {
    top: '#fbf7ef',
    front: c,
    side: shade(c, -0.3),
  });
  // Pastry and cream layers on the front.
  const bands: [number, number, string][] = [
    [0, 0.16, c],
    [0.16, 0.34, a],
    [0.34, 0.5, c],
    [0.5, 0.58, '#b8742e'],
    [0.58, 0.78, a],
    [0.78, 1, c],
  ];
  const clip = s.clip(`<path d="${front}"/>`);
  let g = `<g ${clip}>`;
  for (const [t0, t1, col] of bands) {
    g += `<rect x="${x}" y="${f1(y + h * t0)}" width="${w}" height="${f1(h * (t1 - t0) + 1)}" fill="${col}"/>`;
    if (col === c) {
      // Flaky pastry lines.
      for (let i = 0; i < 4; i++) {
        const yy = y + h * (t0 + ((t1 - t0) * (i + 0.5)) / 4);
        g += `<path d="M${x} ${f1(yy)} Q ${x + w * 0.25} ${f1(yy + s.r(-3, 3))} ${x + w * 0.5} ${f1(yy)} T ${x + w} ${f1(yy)}" stroke="${i % 2 ? shade(c, -0.3) : shade(c, 0.35)}" stroke-width="2" fill="none" opacity="0.8"/>`;
      }
    }
  }
  const shadeFront = s.linear(
    [
      [0, '#000', 0.12],
      [0.3, '#fff', 0.08],
      [1, '#000', 0.2],
    ],
    0,
    0,
    1,
    0,
  );
  g += `<path d="${front}" fill="${shadeFront}"/></g>`;
  s.add(g);
  // Powdered sugar top with feathered arequipe lines.
  const topClip = s.clip(`<path d="${top}"/>`);
  let lines = '';
  for (let i = 0; i < 9; i++) {
    lines += `<path d="M${x + 20 + i * 50} ${y + 5} l 80 -90" stroke="#9a5a22" stroke-width="5" opacity="0.75"/>`;
  }
  s.add(
    `<g ${topClip}>${lines}${dots(s, x + w / 2 + 40, y - 45, w / 2, 45, 120, (px, py) => `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(1, 2.5))}" fill="#fff" opacity="0.9"/>`)}</g>`,
  );
}

function bars(s: Canvas, spec: ImageSpec): void {
  const c = spec.color;
  const a = spec.accent ?? '#c9a27a';
  const natilla = spec.variant === 'natilla';
  plate(s, 480, 455, 360, 150);
  const pieces: [number, number][] = [
    [400, 350],
    [300, 450],
    [520, 460],
  ];
  for (const [x, y] of pieces) {
    const w = 170;
    const d = 150;
    const h = natilla ? 60 : 75;
    shadow(s, x + w / 2 + 20, y + h, w * 0.75, 22, 0.8);
    const top = s.radial(
      [
        [0, shade(c, natilla ? 0.35 : 0.3)],
        [0.6, shade(c, 0.08)],
        [1, shade(c, -0.15)],
      ],
      { fx: 0.3, fy: 0.25 },
    );
    const front = s.linear(
      [
        [0, shade(c, -0.15)],
        [1, shade(c, -0.4)],
      ],
      0,
      0,
      0,
      1,
    );
    const faces = box(s, x, y, w, d, h, { top, front, side: shade(c, -0.5) });
    const clip = s.clip(`<path d="${faces.top}"/>`);
    let detail = '';
    if (natilla) {
      detail += dots(
        s,
        x + w / 2 + 40,
        y - 45,
        w / 2,
        45,
        60,
        (px, py) => `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(1, 2.2))}" fill="#6b3a16" opacity="0.7"/>`,
      );
      detail += `<ellipse cx="${x + w * 0.45}" cy="${y - 50}" rx="50" ry="10" fill="#fff" opacity="0.25"/>`;
    } else {
      // Crackled shiny top and walnut pieces.
      for (let i = 0; i < 8; i++) {
        const px = x + s.r(10, w);
        const py = y - s.r(10, 80);
        detail += `<path d="M${f1(px)} ${f1(py)} l ${f1(s.r(10, 30))} ${f1(s.r(-6, 6))} l ${f1(s.r(5, 20))} ${f1(s.r(-8, 8))}" stroke="${shade(c, 0.45)}" stroke-width="2" fill="none" opacity="0.5"/>`;
      }
      for (let i = 0; i < 3; i++) {
        const px = x + s.r(30, w - 10);
        const py = y - s.r(20, 70);
        detail += `<path d="M${f1(px)} ${f1(py)} q 8 -12 18 -2 q 8 -10 16 2 q -4 14 -17 10 q -12 6 -17 -10Z" fill="${a}" stroke="${shade(a, -0.4)}" stroke-width="1.5"/>`;
      }
    }
    s.add(`<g ${clip}>${detail}</g>`);
    const fclip = s.clip(`<path d="${faces.front}"/>`);
    s.add(
      `<g ${fclip}>${dots(s, x + w / 2, y + h / 2, w / 2, h / 2, 50, (px, py) => `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(1, 3))}" fill="${natilla ? shade(c, 0.2) : shade(c, -0.5)}" opacity="0.5"/>`)}</g>`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Cookies

function cookie(s: Canvas, spec: ImageSpec, x: number, y: number, r: number): void {
  const c = spec.color;
  const a = spec.accent ?? '#4a2a14';
  const v = spec.variant ?? 'chips';
  const squash = 0.62;
  const n = 30;
  const pts: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = (i / n) * Math.PI * 2;
    const rr = v === 'butter' ? r * (1 + 0.06 * Math.cos(t * 12)) : r * (1 + s.r(-0.05, 0.05));
    pts.push(`${f1(x + Math.cos(t) * rr)} ${f1(y + Math.sin(t) * rr * squash)}`);
  }
  const d = `M${pts.join(' L')}Z`;
  const thick = v === 'sugar' ? 26 : 14;
  s.add(`<path d="${d}" transform="translate(0 ${thick})" fill="${shade(c, v === 'sugar' ? -0.22 : -0.45)}"/>`);
  const face = s.radial(
    [
      [0, shade(c, 0.3)],
      [0.6, c],
      [0.88, shade(c, -0.2)],
      [1, shade(c, -0.4)],
    ],
    { fx: 0.42, fy: 0.38 },
  );
  s.add(`<path d="${d}" fill="${face}"/>`);
  const clip = s.clip(`<path d="${d}"/>`);
  let top = dots(
    s,
    x,
    y,
    r,
    r * squash,
    40,
    (px, py, i) =>
      `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(1, 2.5))}" fill="${i % 2 ? shade(c, -0.3) : shade(c, 0.4)}" opacity="0.4"/>`,
  );
  const inner = (count: number, draw: (px: number, py: number, i: number) => string) =>
    dots(s, x, y, r * 0.78, r * squash * 0.78, count, draw, 0.8);
  if (v === 'chips') {
    top += inner(9, (px, py) => {
      const k = s.r(11, 18);
      const poly = Array.from({ length: 5 }, (_, j) => {
        const t = (j / 5) * Math.PI * 2 + s.r(0, 0.6);
        return `${f1(px + Math.cos(t) * k * s.r(0.7, 1.1))} ${f1(py + Math.sin(t) * k * 0.7 * s.r(0.7, 1.1))}`;
      });
      return `<path d="M${poly.join(' L')}Z" fill="${a}"/><ellipse cx="${f1(px - k * 0.3)}" cy="${f1(py - k * 0.25)}" rx="${f1(k * 0.3)}" ry="${f1(k * 0.15)}" fill="#fff" opacity="0.25"/>`;
    });
  } else if (v === 'oats') {
    top += inner(
      16,
      (px, py) =>
        `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="${f1(s.r(8, 12))}" ry="${f1(s.r(4, 6))}" fill="#ead7a8" stroke="#a88a55" stroke-width="1.2" transform="rotate(${f1(s.r(0, 180))} ${f1(px)} ${f1(py)})"/>`,
    );
    top += inner(
      6,
      (px, py) =>
        `<path d="M${f1(px)} ${f1(py)} q 6 -8 12 0 q 4 8 -6 8 q -8 0 -6 -8Z" fill="${a}" stroke="${shade(a, -0.4)}" stroke-width="1"/>`,
    );
  } else if (v === 'sugar') {
    const dust = s.radial([
      [0, '#ffffff', 0.95],
      [0.7, '#fffaf0', 0.75],
      [1, '#fffaf0', 0.2],
    ]);
    top += `<path d="${d}" fill="${dust}"/>`;
    top += dots(
      s,
      x,
      y,
      r,
      r * squash,
      50,
      (px, py) => `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(1, 2.5))}" fill="#d9c9a8" opacity="0.5"/>`,
    );
  } else if (v === 'butter') {
    top += `<ellipse cx="${x}" cy="${y}" rx="${r * 0.55}" ry="${r * squash * 0.55}" fill="none" stroke="${shade(c, 0.35)}" stroke-width="5" opacity="0.6"/>`;
    for (let i = 0; i < 12; i++) {
      const t = (i / 12) * Math.PI * 2;
      top += `<line x1="${f1(x + Math.cos(t) * r * 0.6)}" y1="${f1(y + Math.sin(t) * r * squash * 0.6)}" x2="${f1(x + Math.cos(t) * r * 0.95)}" y2="${f1(y + Math.sin(t) * r * squash * 0.95)}" stroke="${shade(c, -0.25)}" stroke-width="3" opacity="0.45"/>`;
    }
    top += inner(
      14,
      (px, py) =>
        `<rect x="${f1(px)}" y="${f1(py)}" width="4" height="4" fill="#fffdf4" opacity="0.9" transform="rotate(${f1(s.r(0, 90))} ${f1(px)} ${f1(py)})"/>`,
    );
  } else if (v === 'peanut') {
    for (let i = -3; i <= 3; i++) {
      top += `<line x1="${x + i * 22 - 40}" y1="${y - 50}" x2="${x + i * 22 + 40}" y2="${y + 50}" stroke="${shade(c, -0.35)}" stroke-width="4" opacity="0.45"/>`;
      top += `<line x1="${x + i * 22 + 40}" y1="${y - 50}" x2="${x + i * 22 - 40}" y2="${y + 50}" stroke="${shade(c, -0.35)}" stroke-width="4" opacity="0.35"/>`;
    }
    top += inner(
      5,
      (px, py) =>
        `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="11" ry="7" fill="#e3c08a" stroke="${a}" stroke-width="1.5"/><line x1="${f1(px - 8)}" y1="${f1(py)}" x2="${f1(px + 8)}" y2="${f1(py)}" stroke="${a}" stroke-width="1"/>`,
    );
  }
  s.add(`<g ${clip}>${top}</g>`);
}

function cookies(s: Canvas, spec: ImageSpec): void {
  const r = spec.variant === 'sugar' ? 95 : 135;
  shadow(s, 480, 470, 360, 90);
  const spots: [number, number, number][] = [
    [330, 340, 0.9],
    [620, 330, 0.9],
    [475, 380, 0.95],
    [320, 480, 1],
    [630, 485, 1],
  ];
  if (spec.variant === 'sugar') spots.push([480, 520, 1]);
  for (const [x, y, k] of spots) cookie(s, spec, x, y, r * k);
  crumbs(s, 480, 440, 360, 160, spec.color, 16);
}

// ---------------------------------------------------------------------------------------------
// Drinks

function cup(s: Canvas, spec: ImageSpec): void {
  const c = spec.color;
  const a = spec.accent ?? shade(c, 0.5);
  const v = spec.variant ?? 'tinto';
  const x = 470;
  const rim = 250;
  const rx = 150;
  const ry = 50;
  // Saucer.
  shadow(s, x + 10, 560, 250, 60);
  const saucer = s.radial(
    [
      [0, '#ffffff'],
      [0.7, '#f1ede6'],
      [1, '#c9c1b5'],
    ],
    { fx: 0.4, fy: 0.35 },
  );
  s.add(
    `<ellipse cx="${x}" cy="${548}" rx="250" ry="82" fill="#bdb4a7"/>`,
    `<ellipse cx="${x}" cy="${540}" rx="250" ry="80" fill="${saucer}"/>`,
    `<ellipse cx="${x}" cy="${545}" rx="150" ry="46" fill="#e2dcd2"/>`,
  );
  // Cup body.
  const porcelain = s.linear(
    [
      [0, '#bdb5a9'],
      [0.18, '#f7f4ef'],
      [0.35, '#ffffff'],
      [0.75, '#e6e0d7'],
      [1, '#a69d90'],
    ],
    0,
    0,
    1,
    0,
  );
  s.add(
    `<path d="M${x + 140} ${rim + 50} C ${x + 250} ${rim + 30}, ${x + 260} ${rim + 170}, ${x + 110} ${rim + 200}" stroke="#b9b0a3" stroke-width="30" fill="none" stroke-linecap="round"/>`,
    `<path d="M${x + 140} ${rim + 50} C ${x + 240} ${rim + 36}, ${x + 245} ${rim + 160}, ${x + 110} ${rim + 190}" stroke="#f6f2ec" stroke-width="20" fill="none" stroke-linecap="round"/>`,
    `<path d="M${x - rx} ${rim} C ${x - rx} ${rim + 170}, ${x - 110} ${rim + 290}, ${x} ${rim + 292} C ${x + 110} ${rim + 290}, ${x + rx} ${rim + 170}, ${x + rx} ${rim} Z" fill="${porcelain}"/>`,
  );
  // Rim, inner wall and the drink.
  s.add(`<ellipse cx="${x}" cy="${rim}" rx="${rx}" ry="${ry}" fill="#e7e1d8" stroke="#ffffff" stroke-width="5"/>`);
  const drink = s.radial(
    [
      [0, shade(c, 0.25)],
      [0.75, c],
      [0.92, v === 'tinto' ? shade(c, 0.45) : shade(c, -0.2)],
      [1, shade(c, -0.4)],
    ],
    { fx: 0.45, fy: 0.4 },
  );
  const dy = 10;
  s.add(`<ellipse cx="${x}" cy="${rim + dy}" rx="${rx - 10}" ry="${ry - 8}" fill="${drink}"/>`);
  const clip = s.clip(`<ellipse cx="${x}" cy="${rim + dy}" rx="${rx - 10}" ry="${ry - 8}"/>`);
  let top = '';
  if (v === 'capuchino') {
    const foam = s.radial([
      [0, '#fbf3e6'],
      [0.8, a],
      [1, shade(c, 0.1)],
    ]);
    top += `<ellipse cx="${x}" cy="${rim + dy}" rx="${rx - 22}" ry="${ry - 14}" fill="${foam}"/>`;
    top += `<path d="M${x} ${rim + dy + 22} C ${x - 70} ${rim + dy - 6}, ${x - 40} ${rim + dy - 34}, ${x} ${rim + dy - 14} C ${x + 40} ${rim + dy - 34}, ${x + 70} ${rim + dy - 6}, ${x} ${rim + dy + 22}Z" fill="#fffaf2" stroke="${shade(c, -0.1)}" stroke-width="3"/>`;
    top += dots(
      s,
      x,
      rim + dy,
      rx - 30,
      ry - 18,
      40,
      (px, py) => `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(0.8, 2))}" fill="#7a4320" opacity="0.6"/>`,
    );
  } else if (v === 'chocolate') {
    top += dots(
      s,
      x,
      rim + dy,
      rx - 20,
      ry - 12,
      70,
      (px, py) =>
        `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(2, 7))}" fill="${shade(c, 0.35)}" stroke="${shade(c, 0.6)}" stroke-width="1" opacity="0.8"/>`,
      0.5,
    );
  } else {
    top += `<ellipse cx="${x}" cy="${rim + dy}" rx="${rx - 16}" ry="${ry - 13}" fill="none" stroke="${a}" stroke-width="6" opacity="0.7"/>`;
  }
  top += `<ellipse cx="${x - 50}" cy="${rim + dy - 12}" rx="40" ry="8" fill="#fff" opacity="0.35"/>`;
  s.add(`<g ${clip}>${top}</g>`);
  // Steam.
  const steam = s.linear(
    [
      [0, '#fff', 0],
      [0.6, '#fff', 0.22],
      [1, '#fff', 0],
    ],
    0,
    60,
    0,
    rim,
    true,
  );
  s.add(
    `<path d="M${x - 40} ${rim - 10} C ${x - 90} ${rim - 80}, ${x + 10} ${rim - 120}, ${x - 40} ${rim - 200}" stroke="${steam}" stroke-width="18" fill="none" stroke-linecap="round"/>`,
    `<path d="M${x + 30} ${rim - 10} C ${x - 10} ${rim - 90}, ${x + 80} ${rim - 130}, ${x + 30} ${rim - 220}" stroke="${steam}" stroke-width="14" fill="none" stroke-linecap="round"/>`,
  );
  if (v === 'chocolate') {
    // A piece of cheese on the saucer, as chocolate santafereño is served.
    box(s, x + 120, 520, 80, 50, 36, { top: '#fbf3d6', front: '#efe0b0', side: '#d9c68e' });
  } else {
    // A spoon on the saucer.
    const metal = s.linear(
      [
        [0, '#7d838a'],
        [0.5, '#f4f6f8'],
        [1, '#6d737a'],
      ],
      0,
      0,
      0,
      1,
    );
    s.add(
      `<g transform="translate(${x + 120} 560) rotate(-18)"><rect x="0" y="-6" width="110" height="11" rx="5" fill="${metal}"/><ellipse cx="-18" cy="0" rx="30" ry="16" fill="${metal}"/></g>`,
    );
  }
}

function glass(s: Canvas, spec: ImageSpec): void {
  const c = spec.color;
  const a = spec.accent ?? shade(c, 0.4);
  const v = spec.variant ?? 'lulo';
  const x = 440;
  const topY = 165;
  const botY = 575;
  const rt = 120;
  const rb = 98;
  const level = 225;
  shadow(s, x + 15, botY + 8, 140, 30);
  // Glass back wall.
  s.add(
    `<path d="M${x - rt} ${topY} L ${x - rb} ${botY} A ${rb} 24 0 0 0 ${x + rb} ${botY} L ${x + rt} ${topY} Z" fill="#fff" opacity="0.18"/>`,
  );
  const rl = rt - ((rt - rb) * (level - topY)) / (botY - topY);
  const liquid = s.linear(
    [
      [0, shade(c, -0.3)],
      [0.3, shade(c, 0.15)],
      [0.6, c],
      [1, shade(c, -0.35)],
    ],
    0,
    0,
    1,
    0,
  );
  s.add(
    `<path d="M${x - rl + 6} ${level} L ${x - rb + 6} ${botY - 6} A ${rb - 6} 20 0 0 0 ${x + rb - 6} ${botY - 6} L ${x + rl - 6} ${level} Z" fill="${liquid}"/>`,
  );
  // Darker towards the bottom.
  s.add(
    `<path d="M${x - rl + 6} ${level} L ${x - rb + 6} ${botY - 6} A ${rb - 6} 20 0 0 0 ${x + rb - 6} ${botY - 6} L ${x + rl - 6} ${level} Z" fill="${s.linear(
      [
        [0, '#000', 0],
        [1, '#000', 0.25],
      ],
      0,
      0,
      0,
      1,
    )}"/>`,
  );
  s.add(`<ellipse cx="${x}" cy="${level}" rx="${rl - 6}" ry="22" fill="${a}"/>`);
  if (v === 'lulo' || v === 'mora') {
    // Ice and froth.
    for (const [ix, iy, rot] of [
      [x - 45, level - 8, 12],
      [x + 35, level - 2, -20],
    ] as const) {
      s.add(
        `<rect x="${ix - 28}" y="${iy - 22}" width="56" height="44" rx="10" fill="#ffffff" opacity="0.45" stroke="#fff" stroke-opacity="0.8" stroke-width="2" transform="rotate(${rot} ${ix} ${iy})"/>`,
      );
    }
  }
  if (v === 'avena') {
    s.add(
      dots(
        s,
        x,
        level,
        rl - 20,
        14,
        40,
        (px, py) => `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(s.r(1, 2.5))}" fill="#9a6a3a" opacity="0.7"/>`,
      ),
    );
  }
  // Straw.
  s.add(
    `<path d="M${x + 30} ${level + 40} L ${x + 95} ${topY - 110}" stroke="${v === 'mora' ? '#f4efe6' : '#5f8f4e'}" stroke-width="16" stroke-linecap="round"/>`,
    `<path d="M${x + 27} ${level + 40} L ${x + 92} ${topY - 110}" stroke="#fff" stroke-width="4" opacity="0.45" stroke-linecap="round"/>`,
  );
  // Condensation droplets.
  s.add(
    dots(
      s,
      x,
      (level + botY) / 2,
      rb - 12,
      (botY - level) / 2 - 10,
      v === 'avena' || v === 'lulo' ? 60 : 30,
      (px, py) => {
        const r = s.r(1.5, 5);
        return `<circle cx="${f1(px)}" cy="${f1(py)}" r="${f1(r)}" fill="#fff" opacity="0.35"/><circle cx="${f1(px - r * 0.3)}" cy="${f1(py - r * 0.3)}" r="${f1(r * 0.35)}" fill="#fff" opacity="0.8"/>`;
      },
      0.5,
    ),
  );
  // Front of the glass: highlights, rim and thick base.
  s.add(
    `<path d="M${x - rt + 22} ${topY + 20} L ${x - rb + 18} ${botY - 30}" stroke="#fff" stroke-width="14" opacity="0.4" stroke-linecap="round"/>`,
    `<path d="M${x + rt - 16} ${topY + 30} L ${x + rb - 12} ${botY - 40}" stroke="#fff" stroke-width="5" opacity="0.35" stroke-linecap="round"/>`,
    `<path d="M${x - rt} ${topY} L ${x - rb} ${botY} A ${rb} 24 0 0 0 ${x + rb} ${botY} L ${x + rt} ${topY}" fill="none" stroke="#fff" stroke-width="3" opacity="0.6"/>`,
    `<ellipse cx="${x}" cy="${topY}" rx="${rt}" ry="26" fill="none" stroke="#fff" stroke-width="4" opacity="0.75"/>`,
    `<path d="M${x - rb} ${botY - 14} A ${rb} 24 0 0 0 ${x + rb} ${botY - 14} L ${x + rb} ${botY} A ${rb} 24 0 0 1 ${x - rb} ${botY}Z" fill="#fff" opacity="0.3"/>`,
  );
  // Garnish beside the glass.
  if (v === 'lulo') {
    lulo(s, 665, 520, 78);
    lulo(s, 760, 430, 60, true);
  } else if (v === 'mora') {
    for (const [bx, by] of [
      [720, 470],
      [650, 545],
      [770, 540],
    ] as const)
      berry(s, bx, by);
  } else if (v === 'avena') {
    for (const [bx, by, rot] of [
      [650, 520, -12],
      [670, 550, -4],
    ] as const) {
      s.add(
        `<g transform="translate(${bx} ${by}) rotate(${rot})"><rect x="0" y="-10" width="170" height="22" rx="8" fill="#8a4f25"/><rect x="0" y="-10" width="170" height="8" rx="4" fill="#b87543" opacity="0.8"/><ellipse cx="170" cy="1" rx="8" ry="11" fill="#6a3716"/><path d="M166 -4 q 8 4 0 10" stroke="#c48a58" stroke-width="2" fill="none"/></g>`,
      );
    }
  }
}

function lulo(s: Canvas, x: number, y: number, r: number, whole = false): void {
  shadow(s, x, y + r * 0.3, r * 0.95, r * 0.3, 0.8);
  const skin = s.radial(
    [
      [0, '#ffc25a'],
      [0.7, '#f08c16'],
      [1, '#b45a08'],
    ],
    { fx: 0.35, fy: 0.3 },
  );
  if (whole) {
    s.add(
      `<circle cx="${x}" cy="${y}" r="${r}" fill="${skin}"/>`,
      `<circle cx="${x}" cy="${y - r}" r="8" fill="#5f7a2e"/>`,
    );
    return;
  }
  const flesh = s.radial([
    [0, '#e8efb0'],
    [0.35, '#b9c955'],
    [0.85, '#8fa832'],
    [1, '#6f8a22'],
  ]);
  let seedsRing = '';
  for (let i = 0; i < 4; i++) {
    const t = (i / 4) * Math.PI * 2 + 0.4;
    const sx = x + Math.cos(t) * r * 0.42;
    const sy = y + Math.sin(t) * r * 0.25;
    seedsRing += `<ellipse cx="${f1(sx)}" cy="${f1(sy)}" rx="${f1(r * 0.26)}" ry="${f1(r * 0.14)}" fill="#d6dd86" stroke="#7a8d2a" stroke-width="1.5"/>`;
    for (let j = 0; j < 5; j++)
      seedsRing += `<circle cx="${f1(sx + s.r(-10, 10))}" cy="${f1(sy + s.r(-4, 4))}" r="2.2" fill="#f4f1d0"/>`;
  }
  s.add(
    `<ellipse cx="${x}" cy="${y + 10}" rx="${r}" ry="${r * 0.62}" fill="${skin}"/>`,
    `<ellipse cx="${x}" cy="${y}" rx="${r}" ry="${r * 0.6}" fill="#f29a22"/>`,
    `<ellipse cx="${x}" cy="${y}" rx="${r * 0.9}" ry="${r * 0.52}" fill="${flesh}"/>`,
    seedsRing,
  );
}

function berry(s: Canvas, x: number, y: number): void {
  let out = '';
  shadow(s, x, y + 30, 40, 13, 0.8);
  for (let i = 0; i < 14; i++) {
    const t = (i / 14) * Math.PI * 2;
    const d = i % 2 ? 17 : 8;
    const bx = x + Math.cos(t * 1.7) * d;
    const by = y + Math.sin(t * 1.7) * d * 1.3;
    out += `<circle cx="${f1(bx)}" cy="${f1(by)}" r="11" fill="#3b0d24"/><circle cx="${f1(bx - 3.5)}" cy="${f1(by - 3.5)}" r="3.5" fill="#c46a92" opacity="0.7"/>`;
  }
  s.add(out);
}

// ---------------------------------------------------------------------------------------------

const DRAW: Record<Shape, (s: Canvas, spec: ImageSpec) => void> = {
  roll: rolls,
  baguette: baguettes,
  boule: (s, spec) => boule(s, spec, 480, 390, 1),
  tinloaf: tinLoaf,
  toast: toasts,
  cheesebread: cheeseBreads,
  ball: fritters,
  horseshoe: horseshoes,
  croissant: croissants,
  ring: ringBread,
  braid,
  cake,
  slice,
  layers,
  bar: bars,
  cookie: cookies,
  cup,
  glass,
};

/** Table tops vary a little between pictures: a few versions of each are drawn and reused. */
const TABLE_VERSIONS = 3;

function tableSvg(kind: NonNullable<ImageSpec['table']>, version: number): string {
  const s = new Canvas(seeded(`table-${kind}-${version}`));
  table(s, kind);
  return s.toString();
}

function itemSvg(spec: ImageSpec, seed: string): string {
  const s = new Canvas(seeded(seed));
  DRAW[spec.shape](s, spec);
  return s.toString();
}

function lightingSvg(): string {
  const s = new Canvas(seeded('light'));
  lighting(s);
  return s.toString();
}

function versionOf(seed: string): number {
  return Math.floor(seeded(seed)() * TABLE_VERSIONS);
}

/**
 * The whole still life for `spec` as one SVG, for looking at a design; the seed renders the same layers
 * separately (see createImageRenderer). `seed` varies the details (crumbs, speckles) per product.
 */
export function svgFor(spec: ImageSpec, seed: string = spec.shape): string {
  const parts = [tableSvg(spec.table ?? 'wood', versionOf(seed)), itemSvg(spec, seed), lightingSvg()];
  // Each part has its own ids (g0, c0…): prefix them so they do not collide in one document.
  const body = parts
    .map((svg, i) => svg.replace(/^<svg[^>]*>|<\/svg>$/g, '').replace(/(id="|url\(#)([gcd]\d+)/g, `$1p${i}$2`))
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}</svg>`;
}

/**
 * Lays the item (RGBA) on the table (RGB), then the light (RGBA), then adds the grain. Done in plain
 * JavaScript: three sharp composites cost more than rendering the item itself.
 */
function flatten(table: Buffer, item: Buffer, light: Buffer, noise: Int8Array): Buffer {
  const out = new Uint8ClampedArray(W * H * 3);
  const inv = 1 / 255;
  for (let i = 0, j = 0, k = 0; i < W * H; i++, j += 3, k += 4) {
    const a = item[k + 3]! * inv;
    const l = light[k + 3]! * inv;
    const n = noise[i]!;
    const r = table[j]! + (item[k]! - table[j]!) * a;
    const g = table[j + 1]! + (item[k + 1]! - table[j + 1]!) * a;
    const b = table[j + 2]! + (item[k + 2]! - table[j + 2]!) * a;
    out[j] = r + (light[k]! - r) * l + n;
    out[j + 1] = g + (light[k + 1]! - g) * l + n;
    out[j + 2] = b + (light[k + 2]! - b) * l + n;
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** Film grain: soft grey noise added to every picture. */
function makeGrain(): Int8Array {
  const rnd = seeded('grain');
  const grain = new Int8Array(W * H);
  for (let i = 0; i < grain.length; i++) grain[i] = Math.round((rnd() + rnd() + rnd() - 1.5) * 14);
  return grain;
}

export type RenderImage = (
  storage: PictureStore,
  dir: string,
  spec: ImageSpec,
  alt: string,
) => Promise<{
  path: string;
  alt: string;
  width: number;
  height: number;
  widths: number[];
  /** Bytes in the storage, every width with the largest twice (as an upload counts them). */
  bytes: number;
  /** The largest width's bytes. */
  size: number;
}>;

/**
 * A renderer for one seed run: the table versions, the light and the grain are drawn once and kept
 * until the renderer is dropped (about 20 MB, not for the life of the server). Each call renders
 * `spec` to `${dir}/main-<w>.webp` for each width and `main.webp` (the largest) in the storage (the
 * same layout uploads have), and returns the record's image value.
 */
export function createImageRenderer(): RenderImage {
  const layers = new Map<string, Promise<Buffer>>();
  const once = (key: string, make: () => Promise<Buffer>) => {
    let p = layers.get(key);
    if (!p) {
      p = make();
      layers.set(key, p);
    }
    return p;
  };
  /** The table, raw RGB. */
  const tableLayer = (kind: NonNullable<ImageSpec['table']>, version: number) =>
    once(`table-${kind}-${version}`, () =>
      sharp(Buffer.from(tableSvg(kind, version)))
        .removeAlpha()
        .raw()
        .toBuffer(),
    );
  /** Key light, falloff and vignette, raw RGBA laid over every picture. */
  const lightLayer = () => once('light', () => sharp(Buffer.from(lightingSvg())).ensureAlpha().raw().toBuffer());
  let grain: Int8Array | null = null;

  return async (storage, dir, spec, alt) => {
    const [tableRaw, light, item] = await Promise.all([
      tableLayer(spec.table ?? 'wood', versionOf(alt)),
      lightLayer(),
      sharp(Buffer.from(itemSvg(spec, alt)))
        .ensureAlpha()
        .raw()
        .toBuffer(),
    ]);
    grain ??= makeGrain();
    const data = flatten(tableRaw, item, light, grain);
    const raw = { raw: { width: W, height: H, channels: 3 } } as const;
    const encoded = await Promise.all(
      WIDTHS.map((w) =>
        (w === W ? sharp(data, raw) : sharp(data, raw).resize(w)).webp({ quality: 80, effort: 1 }).toBuffer(),
      ),
    );
    await Promise.all([
      ...WIDTHS.map((w, i) => storage.put(`${dir}/main-${w}.webp`, encoded[i]!, 'image/webp')),
      storage.put(`${dir}/main.webp`, encoded[WIDTHS.length - 1]!, 'image/webp'),
    ]);
    const largest = encoded[WIDTHS.length - 1]!.length;
    const bytes = encoded.reduce((sum, b) => sum + b.length, largest);
    return { path: `${dir}/main.webp`, alt, width: W, height: H, widths: [...WIDTHS], bytes, size: largest };
  };
}
