// Tiles for people: the notation of mjsvc (README "Tiles and notation"), names in English and Chinese,
// and each tile drawn as SVG by this file (pips, sticks, numerals and strokes), so a tile reads the
// same whether or not a CJK font is installed.
import { Tile } from './gen/mahjong/v1/mahjong_pb';

export const ALL_TILES: Tile[] = Array.from({ length: 34 }, (_, i) => (i + 1) as Tile);

const SUITS = ['m', 'p', 's'] as const;
const SUIT_EN = ['Characters', 'Dots', 'Bamboo'];
const SUIT_ZH = ['万', '筒', '条'];
const NUM_ZH = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
// Honours in proto order (value 28-34): winds E S W N, then dragons red, green, white.
const HONOUR_LETTER = ['E', 'S', 'W', 'N', 'C', 'F', 'P'];
const HONOUR_EN = ['East Wind', 'South Wind', 'West Wind', 'North Wind', 'Red Dragon', 'Green Dragon', 'White Dragon'];
const HONOUR_ZH = ['东', '南', '西', '北', '中', '发', '白'];
// 1z-7z as the Riichi tools write them: winds 1-4, 5z white, 6z green, 7z red.
const Z_TO_TILE: Record<string, Tile> = {
  '1': Tile.EAST, '2': Tile.SOUTH, '3': Tile.WEST, '4': Tile.NORTH, '5': Tile.WHITE, '6': Tile.GREEN, '7': Tile.RED,
};

export function isNumbered(t: Tile): boolean {
  return t >= Tile.M1 && t <= Tile.S9;
}

/** Canonical short name: 1m ... 9s, E S W N, C (red) F (green) P (white). */
export function tileCode(t: Tile): string {
  return isNumbered(t) ? `${(t - 1) % 9 + 1}${SUITS[Math.floor((t - 1) / 9)]}` : HONOUR_LETTER[t - Tile.EAST];
}

export function tileEnglish(t: Tile): string {
  return isNumbered(t) ? `${(t - 1) % 9 + 1} ${SUIT_EN[Math.floor((t - 1) / 9)]}` : HONOUR_EN[t - Tile.EAST];
}

export function tileChinese(t: Tile): string {
  return isNumbered(t) ? NUM_ZH[(t - 1) % 9] + SUIT_ZH[Math.floor((t - 1) / 9)] : HONOUR_ZH[t - Tile.EAST];
}

export class NotationError extends Error {}

/** Tiles of a text such as "123m456p789s1122z" or "123m EE CCC"; NotationError names the bad character. */
export function parseTiles(text: string): Tile[] {
  const out: Tile[] = [];
  let digits: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (/\s|,/.test(c)) continue;
    if (/[0-9]/.test(c)) {
      digits.push(c);
    } else if ('mpsz'.includes(c)) {
      if (digits.length === 0) throw new NotationError(`'${c}' at position ${i + 1} follows no digit`);
      for (const d of digits) {
        if (c === 'z') {
          if (!(d in Z_TO_TILE)) throw new NotationError(`${d}z is not a tile (1z-7z)`);
          out.push(Z_TO_TILE[d]);
        } else {
          if (d === '0') throw new NotationError(`0${c} is not a tile (1-9)`);
          out.push((SUITS.indexOf(c as 'm' | 'p' | 's') * 9 + Number(d)) as Tile);
        }
      }
      digits = [];
    } else if (HONOUR_LETTER.includes(c) && digits.length === 0) {
      out.push((Tile.EAST + HONOUR_LETTER.indexOf(c)) as Tile);
    } else {
      throw new NotationError(`'${c}' at position ${i + 1} is not a tile`);
    }
  }
  if (digits.length) throw new NotationError(`${digits.join('')} has no suit letter (m, p, s or z)`);
  return out;
}

/** Compact canonical text: digits of one suit share their letter (123m456p), honours as letters. */
export function tilesText(tiles: readonly Tile[]): string {
  let out = '';
  let suit = '';
  for (const t of tiles) {
    const code = tileCode(t);
    const s = code.length === 2 ? code[1] : '';
    if (suit && s !== suit) out += suit;
    out += s ? code[0] : code;
    suit = s;
  }
  return out + suit;
}

// -- drawing ---------------------------------------------------------------------------------------

const NS = 'http://www.w3.org/2000/svg';
const W = 60;
const H = 80;
const BLUE = '#1d4f91';
const GREEN = '#16784a';
const RED = '#c0392b';

// Pip centres of the dots tiles 1-9 in the 60x80 face, and their radius.
const PIPS: [number, number][][] = [
  [[30, 40]],
  [[30, 24], [30, 56]],
  [[16, 18], [30, 40], [44, 62]],
  [[18, 24], [42, 24], [18, 56], [42, 56]],
  [[18, 22], [42, 22], [30, 40], [18, 58], [42, 58]],
  [[19, 18], [41, 18], [19, 40], [41, 40], [19, 62], [41, 62]],
  [[14, 14], [30, 22], [46, 30], [19, 48], [41, 48], [19, 66], [41, 66]],
  [[19, 14], [41, 14], [19, 31], [41, 31], [19, 48], [41, 48], [19, 65], [41, 65]],
  [[14, 18], [30, 18], [46, 18], [14, 40], [30, 40], [46, 40], [14, 62], [30, 62], [46, 62]],
];
const PIP_RADIUS = [15, 10, 8.5, 8.5, 8, 7.5, 6.5, 6.5, 6.5];
// Stick centres of the bamboo tiles 2-9 (the 1 is one large stick).
const STICKS: [number, number][][] = [
  [],
  [[30, 25], [30, 55]],
  [[30, 25], [19, 55], [41, 55]],
  [[19, 25], [41, 25], [19, 55], [41, 55]],
  [[16, 25], [44, 25], [30, 40], [16, 55], [44, 55]],
  [[16, 25], [30, 25], [44, 25], [16, 55], [30, 55], [44, 55]],
  [[30, 16], [16, 40], [30, 40], [44, 40], [16, 64], [30, 64], [44, 64]],
  [[13, 25], [24, 25], [36, 25], [47, 25], [13, 55], [24, 55], [36, 55], [47, 55]],
  [[16, 16], [30, 16], [44, 16], [16, 40], [30, 40], [44, 40], [16, 64], [30, 64], [44, 64]],
];

function el(name: string, attrs: Record<string, string | number>, parent?: Element): SVGElement {
  const e = document.createElementNS(NS, name) as SVGElement;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent?.appendChild(e);
  return e;
}

function stroke(d: string, color: string, width: number, parent: Element): void {
  el('path', { d, fill: 'none', stroke: color, 'stroke-width': width, 'stroke-linecap': 'round',
    'stroke-linejoin': 'round' }, parent);
}

function drawDots(n: number, g: Element): void {
  PIPS[n - 1].forEach(([x, y], i) => {
    const color = n === 1 ? RED : [BLUE, GREEN, RED][(i + n) % 3];
    const r = PIP_RADIUS[n - 1];
    el('circle', { cx: x, cy: y, r, fill: 'none', stroke: color, 'stroke-width': 2.2 }, g);
    el('circle', { cx: x, cy: y, r: r * 0.45, fill: color }, g);
  });
}

function drawStick(x: number, y: number, h: number, color: string, g: Element): void {
  el('rect', { x: x - 3.2, y: y - h / 2, width: 6.4, height: h, rx: 3, fill: color }, g);
  el('line', { x1: x - 3.2, y1: y, x2: x + 3.2, y2: y, stroke: '#fbf8ef', 'stroke-width': 1.4 }, g);
}

function drawBamboo(n: number, g: Element): void {
  if (n === 1) {
    el('rect', { x: 24, y: 12, width: 12, height: 56, rx: 6, fill: GREEN }, g);
    for (const y of [26, 40, 54]) el('line', { x1: 24, y1: y, x2: 36, y2: y, stroke: '#fbf8ef', 'stroke-width': 2 }, g);
    el('circle', { cx: 30, cy: 12, r: 5, fill: RED }, g);
    return;
  }
  const h = n >= 7 && n !== 8 ? 18 : 24;
  STICKS[n - 1].forEach(([x, y], i) => drawStick(x, y, h, (n === 9 && i % 3 === 1) || (n === 5 && i === 2) ? RED : GREEN, g));
}

function drawCharacters(n: number, g: Element): void {
  const t = el('text', { x: 30, y: 33, 'text-anchor': 'middle', 'font-size': 28, 'font-weight': 700,
    'font-family': 'Georgia, "DejaVu Serif", serif', fill: BLUE }, g);
  t.textContent = String(n);
  // 万, drawn: a top bar, a falling stroke to the left, a hooked stroke to the right.
  stroke('M15 46 H45', RED, 4, g);
  stroke('M29 46 C 28 58, 23 66, 15 71', RED, 4, g);
  stroke('M28 56 H42 C 42 64, 40 69, 34 70', RED, 4, g);
}

function drawHonour(t: Tile, g: Element): void {
  const i = t - Tile.EAST;
  if (i < 4) { // winds: the letter, large
    const txt = el('text', { x: 30, y: 52, 'text-anchor': 'middle', 'font-size': 38, 'font-weight': 700,
      'font-family': 'Georgia, "DejaVu Serif", serif', fill: '#1b1b1b' }, g);
    txt.textContent = HONOUR_LETTER[i];
    return;
  }
  if (t === Tile.RED) { // 中: a box and a stroke through it
    stroke('M17 29 H43 V49 H17 Z', RED, 5, g);
    stroke('M30 14 V68', RED, 5, g);
  } else if (t === Tile.GREEN) { // 发, drawn in a few strokes
    stroke('M21 17 L25 25 M40 16 L36 25', GREEN, 4, g);
    stroke('M14 32 H46', GREEN, 4.5, g);
    stroke('M31 20 C 29 45, 24 58, 13 68', GREEN, 4.5, g);
    stroke('M24 46 H42 C 38 56, 32 63, 23 68', GREEN, 4, g);
    stroke('M28 52 C 34 60, 40 65, 47 68', GREEN, 4, g);
  } else { // white dragon: an empty blue frame
    el('rect', { x: 14, y: 14, width: 32, height: 52, rx: 3, fill: 'none', stroke: BLUE, 'stroke-width': 3.5 }, g);
    el('rect', { x: 19, y: 19, width: 22, height: 42, rx: 2, fill: 'none', stroke: BLUE, 'stroke-width': 1.5 }, g);
  }
}

/** The tile as an SVG element (60x80 units), with its English and Chinese names as its title. */
export function tileSvg(t: Tile, width = 36): SVGSVGElement {
  const svg = el('svg', { viewBox: `0 0 ${W} ${H + 6}`, width, height: Math.round((width * (H + 6)) / W),
    class: 'tile', role: 'img', 'aria-label': tileEnglish(t), 'data-tile': tileCode(t) }) as SVGSVGElement;
  el('title', {}, svg).textContent = `${tileEnglish(t)} (${tileChinese(t)})`;
  el('rect', { x: 1.5, y: 5, width: W - 3, height: H - 0.5, rx: 7, fill: '#c9b98f' }, svg); // the tile's side
  el('rect', { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 7, fill: '#fbf8ef', stroke: '#8a8170',
    'stroke-width': 1.5 }, svg);
  const face = el('g', {}, svg);
  if (isNumbered(t)) {
    const n = (t - 1) % 9 + 1;
    [drawCharacters, drawDots, drawBamboo][Math.floor((t - 1) / 9)](n, face);
  } else {
    drawHonour(t, face);
  }
  return svg;
}
