// Replays Riichi hand logs through majiang-core (the engine the oracle hands were played with), the work a
// stateless referee does on each call: every event applied and checked, the options of every decision point
// computed (what may be discarded, called, declared, won), and each win scored. Reads the logs in the
// oracle's neutral form (one JSON object per line on stdin), prints timings as JSON on stdout.
//   node replay.js ROUNDS < logs.jsonl
// Output: {"logs": n, "settle_us": [per log, median of ROUNDS], "prefix_us": [...], "checksum": n}
// `prefix_us`: the replay of the log up to its middle decision point and the options there (a Legal call).
'use strict';
const Majiang = require('@kobalab/majiang-core');
const Game = Majiang.Game;

const rule = Majiang.rule();
const WIND = { E: 0, S: 1, W: 2, N: 3 };

function pai(t) { return t[1] + t[0]; }  // "5m" -> "m5", "0p" -> "p0", "7z" -> "z7"
function direction(seat, from) { return ['', '+', '=', '-'][(from - seat + 4) % 4]; }
function digits(m) { return (m.match(/\d/g) || []).map((d) => d).sort().join(''); }

function replay(rec, stopAt) {
  const n = rec.events.length;
  const end = stopAt === undefined ? n : stopAt;
  const shoupai = []; let paishu = 70; let nGang = 0; let diyizimo = true;
  const zhuangfeng = WIND[rec.round_wind] || 0;
  let work = 0; let lastDiscard = null; let lastSeat = -1;
  for (let i = 0; i < end; i++) {
    const e = rec.events[i];
    const menfeng = (s) => (s - rec.dealer + 4) % 4;
    switch (e.type) {
      case 'deal':
        for (let s = 0; s < 4; s++) shoupai[s] = new Majiang.Shoupai(e.hands[s].map(pai));
        break;
      case 'draw': {
        const sp = shoupai[e.seat];
        sp.zimo(pai(e.tile)); if (!e.rinshan) paishu--;
        work += Game.get_dapai(rule, sp).length;
        const g = Game.get_gang_mianzi(rule, sp, null, paishu, nGang); work += g ? g.length : 0;
        const l = Game.allow_lizhi(rule, sp, null, paishu, 25000); work += l ? l.length : 0;
        work += Game.allow_hule(rule, sp, null, zhuangfeng, menfeng(e.seat), false, true) ? 1 : 0;
        work += Game.allow_pingju(rule, sp, diyizimo) ? 1 : 0;
        break;
      }
      case 'discard': {
        const sp = shoupai[e.seat];
        sp.dapai(pai(e.tile) + (e.riichi ? '*' : ''));
        lastDiscard = pai(e.tile); lastSeat = e.seat;
        if (e.seat === (rec.dealer + 3) % 4) diyizimo = false;
        for (let s = 0; s < 4; s++) {
          if (s === e.seat) continue;
          const p = lastDiscard + direction(s, e.seat);
          work += Game.allow_hule(rule, shoupai[s], p, zhuangfeng, menfeng(s), false, true) ? 1 : 0;
          const pg = Game.get_peng_mianzi(rule, shoupai[s], p, paishu); work += pg ? pg.length : 0;
          const gg = Game.get_gang_mianzi(rule, shoupai[s], p, paishu, nGang); work += gg ? gg.length : 0;
          if (s === (e.seat + 1) % 4) { const c = Game.get_chi_mianzi(rule, shoupai[s], p, paishu); work += c ? c.length : 0; }
        }
        break;
      }
      case 'call': {
        const sp = shoupai[e.seat]; const p = lastDiscard + direction(e.seat, lastSeat);
        const options = e.kind === 'chi' ? Game.get_chi_mianzi(rule, sp, p, paishu)
          : e.kind === 'pon' ? Game.get_peng_mianzi(rule, sp, p, paishu) : Game.get_gang_mianzi(rule, sp, p, paishu, nGang);
        const want = digits(e.tiles.map(pai).map((x) => x[1]).join(''));
        const m = options.find((o) => digits(o) === want) || options[0];
        sp.fulou(m); diyizimo = false;
        if (e.kind === 'kan') nGang++;
        else work += Game.get_dapai(rule, sp).length;
        break;
      }
      case 'kong': {
        const sp = shoupai[e.seat];
        const options = sp.get_gang_mianzi() || [];
        const m = options.find((o) => o[0] === pai(e.tile)[0] && o.replace(/0/g, '5').includes(pai(e.tile)[1].replace('0', '5'))) || options[0];
        sp.gang(m); nGang++; diyizimo = false;
        if (e.kind === 'added') {
          for (let s = 0; s < 4; s++) if (s !== e.seat) {
            work += Game.allow_hule(rule, shoupai[s], pai(e.tile) + direction(s, e.seat), zhuangfeng, menfeng(s), true, true) ? 1 : 0;
          }
        }
        break;
      }
      case 'win': {
        const sp = shoupai[e.seat]; const sit = (e.reference && e.reference.situation) || {};
        const rong = e.from === null ? null : pai(e.tile) + direction(e.seat, e.from);
        const param = Majiang.Util.hule_param({
          rule, zhuangfeng, menfeng: menfeng(e.seat),
          lizhi: sit.riichi || 0, yifa: !!sit.ippatsu, qianggang: !!sit.chankan, lingshang: !!sit.rinshan,
          haidi: sit.haitei || 0, tianhu: sit.tenhou || 0,
          baopai: (sit.dora_indicators || []).map(pai), fubaopai: (e.reference && e.reference.ura_indicators || []).map(pai),
          changbang: rec.honba, lizhibang: rec.sticks,
        });
        const h = Majiang.Util.hule(sp, rong, param);
        work += h ? h.defen : 0;
        break;
      }
      case 'draw_game':
        for (let s = 0; s < 4; s++) work += Majiang.Util.xiangting(shoupai[s]) === 0 ? 1 : 0;
        break;
      default:
        break;
    }
  }
  return work;
}

function middle(rec) {
  // the middle discard: a decision point (who may call or win on it)
  const idx = rec.events.map((e, i) => (e.type === 'discard' ? i : -1)).filter((i) => i >= 0);
  return idx.length ? idx[Math.floor(idx.length / 2)] + 1 : rec.events.length;
}

function time(fn, rounds) {
  const out = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint(); fn(); out.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  out.sort((a, b) => a - b);
  return out[Math.floor(out.length / 2)];
}

const rounds = +(process.argv[2] || 5);
const recs = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
let checksum = 0;
for (const rec of recs) { checksum += replay(rec); checksum += replay(rec, middle(rec)); }  // warm-up
const settle = recs.map((rec) => time(() => replay(rec), rounds));
const prefix = recs.map((rec) => time(() => replay(rec, middle(rec)), rounds));
process.stdout.write(JSON.stringify({ logs: recs.length, settle_us: settle, prefix_us: prefix, checksum }) + '\n');
