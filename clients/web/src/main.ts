// The playground: type or click a hand, see what the engine says. Every answer comes from the server
// over grpc-web (the `mjsvc web` gateway that serves this page), through a client generated from the
// repository's .proto; nothing is scored in the browser.
import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { BadRequestSchema, ErrorInfoSchema } from './gen/google/rpc/error_details_pb';
import {
  type AnalyzeResponse, AnalyzeRequestSchema, ClaimedFrom, type EvaluateResponse, EvaluateRequestSchema,
  HandSchema, MahjongEngine, type Meld, MeldKind, MeldSchema, type Scoring, ShapeKind, type Tile,
  type TileCount, WinContextSchema, Wind,
} from './gen/mahjong/v1/mahjong_pb';
import { ALL_TILES, NotationError, parseTiles, tileChinese, tileCode, tileEnglish, tileSvg, tilesText } from './tiles';

const client = createClient(MahjongEngine, createGrpcWebTransport({ baseUrl: window.location.origin }));

const RULE_SETS: [string, string][] = [
  ['mcr', 'Chinese Official (MCR) 国标'], ['mcr2p', 'Two-player 二人麻将'], ['riichi', 'Riichi 立直'],
  ['sichuan', 'Sichuan 血战到底'], ['guangdong', 'Guangdong 广东'], ['hk', 'Hong Kong 港式'],
];
const SHAPES: Record<number, string> = {
  [ShapeKind.STANDARD]: 'Four sets and a pair', [ShapeKind.SEVEN_PAIRS]: 'Seven pairs',
  [ShapeKind.THIRTEEN_ORPHANS]: 'Thirteen orphans', [ShapeKind.HONORS_AND_KNITTED]: 'Honours and knitted',
  [ShapeKind.KNITTED_STRAIGHT]: 'Knitted straight',
};
const FLAGS = ['self_drawn', 'last_of_kind', 'replacement_tile', 'robbing_kong', 'last_wall_tile', 'heavenly',
  'earthly', 'ready_declared', 'heavenly_ready', 'riichi'] as const;
// The context controls that are not flags, by the WinContext field each one sets.
const CONTROLS: [string, string][] = [['seat', 'seat_wind'], ['prevalent', 'prevalent_wind'], ['flowers', 'flowers']];

// What each rule set plays and reads, as its server says (ListFans): the unit of its fans, the context fields
// it reads (any other one sent would be BAD_CONTEXT, so the page sends only these) and its tiles.
interface RuleSetInfo {
  unit: string;
  reads: Set<string>;
  tiles: Set<number>;
}
const INFO = new Map<string, RuleSetInfo>();
const currentInfo = (): RuleSetInfo | undefined => INFO.get($<HTMLSelectElement>('rule-set').value);

const $ = <T extends HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`#${id} missing from index.html`);
  return e as T;
};
const h = (tag: string, cls = '', text = ''): HTMLElement => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
};

// -- errors next to their fields -------------------------------------------------------------------

// The request field a server error names -> the form control it belongs to.
function controlFor(field: string): string {
  if (field === 'rule_set' || field.startsWith('options')) return 'rule-set';
  if (field.startsWith('hand.melds')) return 'melds';
  if (field.startsWith('hand.winning_tile')) return 'winning-tile';
  if (field.startsWith('hand')) return 'hand';
  if (field.startsWith('visible')) return 'visible';
  if (field === 'context.flowers') return 'flowers';
  if (field === 'context.seat_wind') return 'seat';
  if (field === 'context.prevalent_wind') return 'prevalent';
  if (field.startsWith('context')) return 'context';
  return 'general';
}

function clearErrors(): void {
  for (const e of document.querySelectorAll('.field-error')) {
    e.textContent = '';
    e.parentElement?.classList.remove('has-error');
  }
}

function showError(control: string, text: string): void {
  const box = document.getElementById(`${control}-error`) ?? $('general-error');
  if (box.textContent) return; // the first error about a field is the one to fix
  box.textContent = text;
  box.parentElement?.classList.add('has-error');
}

function showServerError(err: unknown): void {
  const e = ConnectError.from(err);
  const info = e.findDetails(ErrorInfoSchema)[0];
  const field = e.findDetails(BadRequestSchema)[0]?.fieldViolations[0]?.field ?? info?.metadata.field ?? '';
  const code = Code[e.code].replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
  const reason = info ? `${info.reason}: ` : `${code}: `;
  showError(field ? controlFor(field) : 'general', reason + e.rawMessage);
}

// -- the form --------------------------------------------------------------------------------------

function parseMelds(text: string): Meld[] {
  // KIND:TILES[:FLAG,...] as `python -m engine` takes them, e.g. "pung:CCC chow:123m kong:5555p:concealed"
  const melds: Meld[] = [];
  for (const token of text.split(/[\s;]+/).filter(Boolean)) {
    const [kindText, tilesPart, flagText = ''] = token.split(':');
    const kind = { chow: MeldKind.CHOW, pung: MeldKind.PUNG, kong: MeldKind.KONG }[kindText?.toLowerCase()];
    if (!kind || !tilesPart) throw new NotationError(`${token}: expected chow:TILES, pung:TILES or kong:TILES`);
    const meld = create(MeldSchema, { kind, tiles: parseTiles(tilesPart) });
    for (const flag of flagText.split(',').filter(Boolean)) {
      if (flag === 'concealed') meld.concealed = true;
      else if (flag === 'added') meld.added = true;
      else if (flag.startsWith('from=')) {
        const from = { left: ClaimedFrom.LEFT, across: ClaimedFrom.ACROSS, right: ClaimedFrom.RIGHT }[flag.slice(5)];
        if (!from) throw new NotationError(`${token}: from=left, from=across or from=right`);
        meld.claimedFrom = from;
      } else if (/^claimed=\d$/.test(flag)) meld.claimedIndex = Number(flag.slice(8));
      else throw new NotationError(`${token}: unknown flag ${flag} (concealed, added, from=..., claimed=N)`);
    }
    if (!meld.concealed && meld.claimedFrom === ClaimedFrom.UNSPECIFIED) meld.claimedFrom = ClaimedFrom.LEFT;
    melds.push(meld);
  }
  return melds;
}

interface Situation {
  ruleSet: string;
  tiles: Tile[]; // concealed tiles as typed, the winning tile included
  winning?: Tile;
  melds: Meld[];
  visible: Tile[];
}

function readForm(): Situation | null {
  let ok = true;
  const read = <T>(control: string, f: () => T, fallback: T): T => {
    try {
      return f();
    } catch (e) {
      if (!(e instanceof NotationError)) throw e;
      showError(control, e.message);
      ok = false;
      return fallback;
    }
  };
  const tiles = read('hand', () => parseTiles($<HTMLInputElement>('hand').value), []);
  const melds = read('melds', () => parseMelds($<HTMLInputElement>('melds').value), []);
  const visible = read('visible', () => parseTiles($<HTMLInputElement>('visible').value), []);
  const winText = $<HTMLInputElement>('winning-tile').value.trim();
  let winning = read('winning-tile', () => (winText ? parseTiles(winText) : []), []);
  if (winning.length > 1) {
    showError('winning-tile', 'one tile, e.g. 7z or C');
    ok = false;
  }
  // Without a winning tile named, a hand of 14 (melds counting 3 each) won on its last tile.
  if (!winText && tiles.length + 3 * melds.length === 14) winning = [tiles[tiles.length - 1]];
  else if (winning.length === 1) tiles.push(winning[0]);
  if (!ok) return null;
  return { ruleSet: $<HTMLSelectElement>('rule-set').value, tiles, winning: winning[0], melds, visible };
}

function contextOf() {
  const reads = currentInfo()?.reads;
  const read = (field: string): boolean => !reads || reads.has(field);
  const ctx = create(WinContextSchema, {});
  if (read('seat_wind')) ctx.seatWind = Number($<HTMLSelectElement>('seat').value) as Wind;
  if (read('prevalent_wind')) ctx.prevalentWind = Number($<HTMLSelectElement>('prevalent').value) as Wind;
  if (read('flowers')) ctx.flowers = Number($<HTMLInputElement>('flowers').value || 0);
  for (const flag of FLAGS) {
    const box = document.getElementById(`ctx-${flag}`) as HTMLInputElement | null;
    const key = flag.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()) as 'selfDrawn';
    if (box?.checked && read(flag)) ctx[key] = true;
  }
  return ctx;
}

// The rule set chosen: controls for fields it does not read are greyed out (and not sent), and so are the
// palette's tiles it does not play.
function applyRuleSet(): void {
  const info = currentInfo();
  const name = $<HTMLSelectElement>('rule-set').value;
  const enable = (control: HTMLInputElement | HTMLSelectElement, field: string): void => {
    const used = !info || info.reads.has(field);
    control.disabled = !used;
    const label = control.closest('label');
    label?.classList.toggle('unused', !used);
    if (label) label.title = used ? '' : `${name} does not use this`;
  };
  for (const [id, field] of CONTROLS) enable($<HTMLInputElement>(id), field);
  for (const flag of FLAGS) enable($<HTMLInputElement>(`ctx-${flag}`), flag);
  for (const b of document.querySelectorAll<HTMLButtonElement>('#palette button')) {
    b.disabled = !!info && !info.tiles.has(Number(b.dataset.value));
  }
}

// The headline in the rule set's own terms.
function verdictText(s: Scoring, unit: string): string {
  switch (unit) {
    case 'han':
      return s.yakuman ? `Win: yakuman${s.yakuman > 1 ? ` ×${s.yakuman}` : ''}, ${s.points} points`
        : `Win: ${s.han} han ${s.fu} fu, ${s.points} points`;
    case 'fan':
      return `Win: ${s.total} fan, value ${s.points}`;
    case 'faan':
      return `Win: ${s.total} faan, ${s.points} points`;
    case 'multiplier':
      return `Win: ×${s.total}, ${s.points} points`;
    default:
      return `Win: ${s.total} points`;
  }
}

// -- drawing the answers ---------------------------------------------------------------------------

function tileRow(tiles: readonly Tile[], highlight?: number): HTMLElement {
  const row = h('span', 'tile-row');
  tiles.forEach((t, i) => {
    const svg = tileSvg(t, 30);
    if (i === highlight) svg.classList.add('winning');
    row.appendChild(svg);
  });
  return row;
}

function countList(counts: readonly TileCount[], testid: string): HTMLElement {
  const list = h('div', 'counts');
  list.dataset.testid = testid;
  for (const c of counts) {
    const item = h('span', 'count');
    item.appendChild(tileSvg(c.tile, 30));
    item.appendChild(h('span', 'count-label', `${tileCode(c.tile)} ×${c.remaining} left`));
    item.title = `${tileEnglish(c.tile)} (${tileChinese(c.tile)}): ${c.remaining} not seen${c.allCopiesHeld ? ', all four held' : ''}`;
    list.appendChild(item);
  }
  if (!counts.length) list.textContent = 'none';
  return list;
}

function scoringBlock(s: Scoring, label: string): HTMLElement {
  const block = h('div', 'decomposition');
  const head = h('div', 'decomposition-head');
  head.appendChild(h('strong', '', `${label}: ${SHAPES[s.decomposition?.shape ?? 0] ?? 'unknown shape'}`));
  block.appendChild(head);
  const sets = h('div', 'sets');
  for (const set of s.decomposition?.sets ?? []) {
    const group = tileRow(set.tiles, set.winOffset);
    group.classList.add(set.concealed ? 'concealed-set' : 'exposed-set');
    sets.appendChild(group);
  }
  if (s.decomposition?.knitted.length) sets.appendChild(tileRow(s.decomposition.knitted));
  block.appendChild(sets);
  const table = h('table', 'fans') as HTMLTableElement;
  table.innerHTML = '<thead><tr><th>#</th><th>Fan</th><th lang="zh">番种</th><th>Points</th><th></th></tr></thead>';
  const body = h('tbody');
  for (const f of s.fans) {
    const tr = h('tr', 'fan-row');
    tr.append(h('td', 'fan-id', String(f.id)), h('td', 'fan-name', f.name), h('td', 'fan-zh', f.nameZh),
      h('td', 'fan-points', f.count > 1 ? `${f.points} × ${f.count}` : String(f.points)),
      h('td', 'fan-sum', String(f.points * f.count)));
    tr.children[2].setAttribute('lang', 'zh');
    body.appendChild(tr);
  }
  const total = h('tr', 'total-row');
  const extra = [s.han ? `${s.han} han` : '', s.fu ? `${s.fu} fu` : '', s.points ? `${s.points} points` : '']
    .filter(Boolean).join(', ');
  total.append(h('td'), h('td', '', 'Total' + (extra ? ` (${extra})` : '')), h('td'), h('td'),
    h('td', 'total-value', String(s.total)));
  body.appendChild(total);
  table.appendChild(body);
  block.appendChild(table);
  if (!s.meetsMinimum) block.appendChild(h('p', 'note', 'Below the rule set\'s minimum (flowers not counted).'));
  return block;
}

function showEvaluation(r: EvaluateResponse | null, why: string): void {
  const out = $('score');
  out.replaceChildren();
  if (!r) {
    out.appendChild(h('p', 'note', why));
    return;
  }
  const verdict = h('p', 'verdict', r.isWin && r.best ? verdictText(r.best, currentInfo()?.unit ?? 'points')
    : 'Not a winning hand');
  verdict.id = 'verdict';
  out.appendChild(verdict);
  if (r.isWin && r.best) {
    const best = scoringBlock(r.best, 'Best');
    best.id = 'best';
    out.appendChild(best);
    r.alternatives.forEach((alt, i) => out.appendChild(scoringBlock(alt, `Alternative ${i + 1}`)));
  }
}

function showAnalysis(a: AnalyzeResponse | null): void {
  const out = $('analysis');
  out.replaceChildren();
  if (!a) return;
  const word = a.shanten === -1 ? 'complete' : a.shanten === 0 ? 'ready (waiting)' : `${a.shanten} from ready`;
  const sh = h('p', 'shanten', `Shanten: ${a.shanten} — ${word}`);
  sh.id = 'shanten';
  out.appendChild(sh);
  const byShape = a.shantenByShape.map((s) => `${SHAPES[s.shape] ?? s.shape} ${s.shanten}`).join(' · ');
  if (byShape) out.appendChild(h('p', 'note', `By shape: ${byShape}`));
  if (a.waits.length || a.shanten === 0) {
    out.appendChild(h('h3', '', 'Waits'));
    out.appendChild(countList(a.waits, 'waits'));
  }
  if (a.usefulTiles.length) {
    out.appendChild(h('h3', '', `Useful tiles (${a.usefulCount} left)`));
    out.appendChild(countList(a.usefulTiles, 'useful'));
  }
  if (a.discards.length) {
    out.appendChild(h('h3', '', 'Discard advice (best first)'));
    const table = h('table', 'discards');
    table.innerHTML = '<thead><tr><th>Discard</th><th>Shanten after</th><th>Useful tiles</th><th></th></tr></thead>';
    const body = h('tbody');
    for (const d of a.discards.slice(0, 8)) {
      const tr = h('tr', 'discard-row');
      const tile = h('td');
      tile.append(tileSvg(d.tile, 26), h('span', 'count-label', ` ${tileCode(d.tile)}`));
      tr.append(tile, h('td', '', String(d.shanten)), h('td', '', `${d.usefulCount} left`),
        h('td', 'note', tilesText(d.usefulTiles.map((u) => u.tile))));
      body.appendChild(tr);
    }
    table.appendChild(body);
    out.appendChild(table);
  }
}

// -- the hand on screen ----------------------------------------------------------------------------

function drawHand(): void {
  const view = $('hand-tiles');
  view.replaceChildren();
  let tiles: Tile[] = [];
  try {
    tiles = parseTiles($<HTMLInputElement>('hand').value);
  } catch {
    return;
  }
  const winText = $<HTMLInputElement>('winning-tile').value.trim();
  tiles.forEach((t, i) => {
    const b = h('button', 'tile-button') as HTMLButtonElement;
    b.type = 'button';
    b.title = `Remove ${tileEnglish(t)}`;
    const svg = tileSvg(t, 34);
    if (!winText && i === tiles.length - 1 && tiles.length % 3 === 2) svg.classList.add('winning');
    b.appendChild(svg);
    b.addEventListener('click', () => {
      tiles.splice(i, 1);
      $<HTMLInputElement>('hand').value = tilesText(tiles);
      changed();
    });
    view.appendChild(b);
  });
  const named = (() => {
    try {
      return winText ? parseTiles(winText) : [];
    } catch {
      return [];
    }
  })();
  if (named.length === 1) {
    const svg = tileSvg(named[0], 34);
    svg.classList.add('winning');
    const wrap = h('span', 'winning-tile');
    wrap.title = `Winning tile: ${tileEnglish(named[0])}`;
    wrap.appendChild(svg);
    view.appendChild(wrap);
  }
  $('hand-count').textContent = `${tiles.length} tile${tiles.length === 1 ? '' : 's'}`;
}

let generation = 0;

async function run(): Promise<void> {
  const mine = ++generation;
  document.body.dataset.busy = 'true';
  clearErrors();
  drawHand();
  const s = readForm();
  if (!s) {
    showEvaluation(null, 'Fix the hand to see its score.');
    showAnalysis(null);
    delete document.body.dataset.busy;
    return;
  }
  const concealed = s.winning !== undefined ? s.tiles.slice(0, -1) : s.tiles;
  const total = s.tiles.length + 3 * s.melds.length;
  $('status').textContent = 'asking the server…';
  const analyze = client.analyze(create(AnalyzeRequestSchema, {
    ruleSet: s.ruleSet, hand: create(HandSchema, { concealed: s.tiles, melds: s.melds }), visible: s.visible,
  }));
  const evaluate = s.winning !== undefined && total === 14
    ? client.evaluate(create(EvaluateRequestSchema, {
      ruleSet: s.ruleSet, hand: create(HandSchema, { concealed, melds: s.melds, winningTile: s.winning }),
      context: contextOf(),
    }))
    : null;
  const [ev, an] = await Promise.allSettled([evaluate ?? Promise.resolve(null), analyze]);
  if (mine !== generation) return; // a newer hand was typed meanwhile
  $('status').textContent = '';
  delete document.body.dataset.busy;
  if (ev.status === 'rejected') showServerError(ev.reason);
  if (an.status === 'rejected') showServerError(an.reason);
  showEvaluation(ev.status === 'fulfilled' ? ev.value : null,
    total === 13 ? 'A 13-tile hand: add the winning tile (or type it under "Winning tile") to score it.'
      : 'No score for this hand.');
  showAnalysis(an.status === 'fulfilled' ? an.value : null);
}

let timer = 0;
function changed(): void {
  document.body.dataset.busy = 'true'; // until the answers to this state are shown (the browser test waits on it)
  window.clearTimeout(timer);
  timer = window.setTimeout(() => void run(), 250);
}

async function probeRuleSets(): Promise<void> {
  const select = $<HTMLSelectElement>('rule-set');
  await Promise.all(RULE_SETS.map(async ([name, label]) => {
    const opt = document.createElement('option');
    opt.value = name;
    opt.textContent = label;
    select.appendChild(opt);
    try {
      const r = await client.listFans({ ruleSet: name });
      opt.title = `${r.fans.length} fans, minimum ${r.minPoints}`;
      INFO.set(name, { unit: r.unit, reads: new Set(r.contextFields), tiles: new Set(r.tiles.map(Number)) });
    } catch (err) {
      if (ConnectError.from(err).code !== Code.InvalidArgument) {
        showServerError(err); // the server is not reachable: say so, keep the choice open
        return;
      }
      opt.disabled = true; // UNKNOWN_RULE_SET: this server does not play it
      opt.textContent = `${label} (not served)`;
    }
  }));
  [...select.options].sort((a, b) => RULE_SETS.findIndex((r) => r[0] === a.value)
    - RULE_SETS.findIndex((r) => r[0] === b.value)).forEach((o) => select.appendChild(o));
  select.value = 'mcr';
}

function buildPalette(): void {
  const palette = $('palette');
  for (const t of ALL_TILES) {
    const b = h('button', 'tile-button palette-tile') as HTMLButtonElement;
    b.type = 'button';
    b.title = `Add ${tileEnglish(t)} (${tileChinese(t)})`;
    b.dataset.tile = tileCode(t);
    b.dataset.value = String(t);
    b.appendChild(tileSvg(t, 34));
    b.appendChild(h('span', 'palette-label', tileCode(t)));
    b.addEventListener('click', () => {
      const input = $<HTMLInputElement>('hand');
      let tiles: Tile[] = [];
      try {
        tiles = parseTiles(input.value);
      } catch {
        /* a hand that does not parse is replaced by the clicked tiles */
      }
      input.value = tilesText([...tiles, t]);
      changed();
    });
    palette.appendChild(b);
  }
}

function buildWinds(): void {
  for (const id of ['seat', 'prevalent']) {
    const select = $<HTMLSelectElement>(id);
    for (const [w, name] of [[Wind.EAST, 'East 东'], [Wind.SOUTH, 'South 南'], [Wind.WEST, 'West 西'],
      [Wind.NORTH, 'North 北']] as [Wind, string][]) {
      const opt = document.createElement('option');
      opt.value = String(w);
      opt.textContent = name;
      select.appendChild(opt);
    }
  }
}

async function main(): Promise<void> {
  buildPalette();
  buildWinds();
  for (const e of document.querySelectorAll('input, select')) {
    e.addEventListener('input', changed);
    e.addEventListener('change', changed);
  }
  $('clear').addEventListener('click', () => {
    $<HTMLInputElement>('hand').value = '';
    changed();
  });
  $('form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    void run();
  });
  await probeRuleSets();
  $('rule-set').addEventListener('change', applyRuleSet);
  applyRuleSet();
  document.body.dataset.ready = 'true';
  await run();
}

void main();
