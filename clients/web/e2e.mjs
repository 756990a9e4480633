// Drives the playground in headless Chromium (Debian's /usr/bin/chromium through playwright-core) against
// a running `mjsvc web`, and prints what the page showed as one JSON object. tests/integration/test_web_playground.py
// runs it and checks the figures against gRPC.
//   node e2e.mjs URL SCREENSHOT.png
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [url, screenshot] = process.argv.slice(2);
const profile = mkdtempSync(join(tmpdir(), 'mjsvc-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  chromiumSandbox: false,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1360, height: 1100 },
});
const out = { console: [] };
try {
  const page = context.pages()[0] ?? await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') out.console.push(m.text()); });
  page.on('pageerror', (e) => out.console.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  out.ruleSets = await page.$$eval('#rule-set option', (os) => os.map((o) => ({ value: o.value, disabled: o.disabled })));

  const settle = async (selector, pattern) => {
    try {
      await page.waitForFunction(([s, p]) => {
        const e = document.querySelector(s);
        return !document.body.dataset.busy && e && new RegExp(p).test(e.textContent ?? '');
      }, [selector, pattern], { timeout: 20000 });
    } catch (err) {
      const seen = await page.evaluate((s) => [document.querySelector(s)?.textContent,
        ...[...document.querySelectorAll('.field-error')].map((e) => e.textContent)].filter(Boolean).join(' | '), selector);
      throw new Error(`${selector} never matched /${pattern}/; the page shows: ${seen}`);
    }
  };

  // The README's hand, typed: 123m456p789s1sEEE won on 1s, self-drawn, seat East, prevalent South, 2 flowers.
  await page.fill('#hand', '');
  await page.type('#hand', '123m456p789s1sEEE');
  await page.fill('#winning-tile', '1s');
  await page.selectOption('#prevalent', '2');
  await page.fill('#flowers', '2');
  await settle('#verdict', '^Win: ');
  await settle('#shanten', 'Shanten: -1');
  out.verdict = await page.textContent('#verdict');
  out.total = await page.textContent('#best .total-value');
  out.fans = await page.$$eval('#best .fan-row', (rows) => rows.map((r) => ({
    id: Number(r.querySelector('.fan-id').textContent), name: r.querySelector('.fan-name').textContent,
    zh: r.querySelector('.fan-zh').textContent, points: r.querySelector('.fan-points').textContent,
    sum: Number(r.querySelector('.fan-sum').textContent),
  })));
  out.decompositions = await page.$$eval('.decomposition', (ds) => ds.length);
  out.bestSets = await page.$$eval('#best .sets .tile-row', (rows) => rows.map((r) =>
    [...r.querySelectorAll('svg')].map((s) => s.getAttribute('data-tile')).join('')));
  out.discards = await page.$$eval('.discard-row', (rows) => rows.length);
  await page.screenshot({ path: screenshot, fullPage: true });

  // A hand that splits more than one way: every decomposition is shown, best first.
  await page.fill('#winning-tile', '');
  await page.fill('#hand', '111222333m456pEE');
  await settle('#verdict', '^Win: ');
  out.multiTotals = await page.$$eval('.decomposition .total-value', (ts) => ts.map((t) => Number(t.textContent)));

  // A 13-tile hand clicked from the palette: waits with remaining counts.
  await page.click('#clear');
  await page.fill('#winning-tile', '');
  for (const t of ['1m', '2m', '3m', '4p', '5p', '6p', '7s', '8s', '9s', 'E', 'E', 'S', 'S']) {
    await page.click(`#palette button[data-tile="${t}"]`);
  }
  await settle('#shanten', 'Shanten: 0');
  out.clickedHand = await page.inputValue('#hand');
  out.waits = await page.$$eval('[data-testid="waits"] .count-label', (ls) => ls.map((l) => l.textContent));
  out.scoreNote = await page.textContent('#score');

  // Server errors beside their fields: a tile count (hand) and a flower count (context.flowers).
  await page.fill('#hand', '123m45p');
  await settle('#hand-error', 'TILE_COUNT');
  out.handError = await page.textContent('#hand-error');
  await page.fill('#hand', '123m456p789s1sEEE1s');
  await page.fill('#flowers', '9');
  await settle('#flowers-error', 'BAD_CONTEXT');
  out.flowersError = await page.textContent('#flowers-error');
  out.handErrorAfter = await page.textContent('#hand-error');
  // A typing mistake is caught before any call, beside the field too.
  await page.fill('#melds', 'pong:CCC');
  await settle('#melds-error', 'expected chow');
  out.meldsError = await page.textContent('#melds-error');

  // Each rule set in its own terms: Riichi's han, fu and points; the flower count it does not read greyed out
  // and not sent (2 flowers stay typed in, and no BAD_CONTEXT comes back).
  await page.fill('#melds', '');
  await page.fill('#flowers', '2');
  await page.fill('#hand', '123m456p789s1sEEE');
  await page.fill('#winning-tile', '1s');
  await page.selectOption('#rule-set', 'riichi');
  await settle('#verdict', ' han ');
  out.riichiVerdict = await page.textContent('#verdict');
  out.riichiFlowersDisabled = await page.$eval('#flowers', (e) => e.disabled);
  out.riichiErrors = await page.$$eval('.field-error', (es) => es.map((e) => e.textContent).join(''));
  // Sichuan: no honours on the palette, fan and value in the headline.
  await page.selectOption('#rule-set', 'sichuan');
  await page.fill('#hand', '123m456m789m11p555p');
  await page.fill('#winning-tile', '');
  await settle('#verdict', ' fan, value ');
  out.sichuanVerdict = await page.textContent('#verdict');
  out.sichuanEastDisabled = await page.$eval('#palette button[data-tile="E"]', (e) => e.disabled);
  out.sichuanOneDotDisabled = await page.$eval('#palette button[data-tile="1p"]', (e) => e.disabled);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
