// The hk rule set's oracle: hk-mahjong 3.2.0 (MIT, https://github.com/HSKPeter/hk-mahjong-hand-calculation)
// scores a batch of winning hands. One JSON object per input line:
//   {"concealed": ["c1", ...], "melds": [["h5", "h5", "h5"], ...], "config": {FaanCalculationConfig}}
// Tiles: c characters, d dots, b bamboo (1-9), h honours 1-7 (E S W N red green white, hk-mahjong's order).
// `concealed` holds the concealed tiles and the winning tile; `melds` the declared sets (kongs as four).
// Answer per line: {"value": <faan> | "inf", "name": <limit hand's name>, "details": [[name, value], ...],
// "permutations": n}: the highest value over every permutation hk-mahjong's own search finds (its
// calculate() on a Hand scores only the first one), or {"error": message}.
'use strict';

const readline = require('readline');
const { Tile, Meld, Hand, WinningHand, FaanCalculator, ExplorerOfWinningPermutations } = require('hk-mahjong');
const { MeldType } = require('hk-mahjong/lib/meld/MeldType');

const SUITS = { c: 'character', d: 'dot', b: 'bamboo', h: 'honor' };

function tile(code) {
  return new Tile({ suit: SUITS[code[0]], value: Number(code.slice(1)) });
}

// Sets first, the eyes last: hk-mahjong's kaan-kaan check skips the last meld, assuming it is the eyes.
function eyesLast(winningHand) {
  const melds = winningHand.getMelds();
  if (melds.length !== 5) return winningHand;
  const sets = melds.filter((m) => m.getMeldType() !== MeldType.EYES);
  const eyes = melds.filter((m) => m.getMeldType() === MeldType.EYES);
  return new WinningHand(sets.concat(eyes));
}

function rank(value) {
  return value === '∞' ? Infinity : value;
}

function score(item) {
  const hand = new Hand({ tiles: item.concealed.map(tile), melds: item.melds.map((m) => new Meld(m.map(tile))) });
  const permutations = new ExplorerOfWinningPermutations(hand).getWinningPermutations();
  let best = null;
  for (const permutation of permutations) {
    const result = FaanCalculator.calculate(eyesLast(permutation), item.config);
    if (best === null || rank(result.value) > rank(best.value)) best = result;
  }
  if (best === null) return { value: null, details: [], permutations: 0 };
  const value = best.value === '∞' ? 'inf' : best.value;
  const details = best.details.map((d) => [d.name, d.value === '∞' ? 'inf' : d.value]);
  const out = { value, details, permutations: permutations.length };
  if (value === 'inf') out.name = details[0][0];
  return out;
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let answer;
  try {
    answer = score(JSON.parse(line));
  } catch (err) {
    answer = { error: String(err && err.message ? err.message : err) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
});
