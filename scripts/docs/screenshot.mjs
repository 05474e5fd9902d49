// Opens a Trace Event Format file in the Performance panel of Chromium's own
// DevTools (the trace viewer that ships in the chromium package), expands
// every process and thread track, selects one slice, and saves a picture of
// the page. Run by scripts/docs/screenshot.sh, which starts Chromium.
//
//   node screenshot.mjs PORT TRACE.json OUT.png WIDTH HEIGHT SELECT
//
// PORT is the remote debugging port of a running headless Chromium; SELECT is
// the name of the slice to select. It prints the tracks and slices the panel
// parsed, one JSON object, and exits 1 if the panel showed no slice.
import fs from 'node:fs';

const [port, tracePath, out, width, height, select] = process.argv.slice(2);
const trace = fs.readFileSync(tracePath, 'utf8');
const wait = ms => new Promise(r => setTimeout(r, ms));

const target = await (await fetch(`http://127.0.0.1:${port}/json/new?about:blank`, { method: 'PUT' })).json();
const ws = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
let lastId = 0;
const pending = new Map();
ws.onmessage = m => {
  const d = JSON.parse(m.data);
  if (d.id && pending.has(d.id)) {
    pending.get(d.id)(d);
    pending.delete(d.id);
  }
};
const send = (method, params = {}) => new Promise(resolve => {
  const id = ++lastId;
  pending.set(id, resolve);
  ws.send(JSON.stringify({ id, method, params }));
});
// Evaluates `expression` in the page; its value, or throws with the page's error.
const evaluate = async expression => {
  const r = await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
  if (r.error) throw new Error(r.error.message);
  if (r.result.exceptionDetails) throw new Error(r.result.exceptionDetails.exception?.description ?? r.result.exceptionDetails.text);
  return r.result.result.value;
};

await send('Emulation.setDeviceMetricsOverride', { width: +width, height: +height, deviceScaleFactor: 1, mobile: false });
await send('Page.enable');
// trace_app.html is DevTools without a page to inspect; it reports the missing
// connection in a dialog, which is removed below.
await send('Page.navigate', { url: `http://127.0.0.1:${port}/devtools/trace_app.html` });

// The Performance panel, once DevTools has started (its modules load lazily).
let ready = false;
for (let i = 0; i < 300 && !ready; i++) {
  await wait(100);
  try {
    ready = await evaluate(`(async () => {
      const UI = await import('/devtools/ui/legacy/legacy.js');
      await UI.ViewManager.ViewManager.instance().showView('timeline');
      const T = await import('/devtools/panels/timeline/timeline.js');
      return !!T.TimelinePanel.TimelinePanel.instance();
    })()`);
  } catch {
    ready = false;
  }
}
if (!ready) {
  console.error('screenshot.mjs: the DevTools Performance panel did not start');
  process.exit(1);
}

const result = await evaluate(`(async () => {
  const wait = ms => new Promise(r => setTimeout(r, ms));
  const T = await import('/devtools/panels/timeline/timeline.js');
  const panel = T.TimelinePanel.TimelinePanel.instance();
  await panel.loadFromFile(new File([${JSON.stringify(trace)}], 'trace.json', { type: 'application/json' }));
  const chart = panel.flameChart.mainFlameChart;
  for (let i = 0; i < 300 && !(chart.rawTimelineData?.groups?.length); i++) await wait(100);
  const data = chart.rawTimelineData;
  if (!data?.groups?.length) return { tracks: [], slices: [] };
  // Last to first, so that opening a track does not move the ones above it.
  for (let i = data.groups.length - 1; i >= 0; i--) chart.expandGroup(i, true);
  const provider = chart.dataProvider;
  const slices = [];
  for (let i = 0; i < data.entryStartTimes.length; i++) slices.push(provider.entryTitle(i));
  const selected = slices.indexOf(${JSON.stringify(select)});
  if (selected >= 0) {
    const event = provider.eventByIndex(selected);
    await panel.flameChart.setSelectionAndReveal(T.TimelineSelection.selectionFromEvent(event));
  }
  await wait(500);
  // The sidebar (annotations, insights) is closed for a wider timeline.
  const all = (root, found) => {
    for (const e of root.querySelectorAll('*')) {
      found.push(e);
      if (e.shadowRoot) all(e.shadowRoot, found);
    }
    return found;
  };
  const hide = all(document, []).find(e => /hide sidebar/i.test(e.getAttribute('aria-label') || e.getAttribute('title') || ''));
  if (hide) hide.click();
  return { tracks: data.groups.map(g => g.name), slices, selected: selected >= 0, sidebarClosed: !!hide };
})()`);
await wait(1500);
await evaluate(`document.querySelectorAll('body > .dimmed-pane').forEach(e => e.remove())`);
await wait(300);
const shot = await send('Page.captureScreenshot', { format: 'png' });
fs.writeFileSync(out, Buffer.from(shot.result.data, 'base64'));
await send('Page.close');
ws.close();
console.log(JSON.stringify(result));
if (!result.slices.length) process.exit(1);
