import { it } from 'vitest';
import { vectorFromArray, Utf8 } from 'apache-arrow';
it('prof', () => {
  const n = 20000;
  const strs = Array.from({ length: n }, (_, i) => `agent${i % 25}/m${i} some description text here ${i}`);
  for (let k = 0; k < 3; k++) {
  let t = performance.now();
  vectorFromArray(strs, new Utf8());
  console.log('vectorFromArray', performance.now() - t);
  t = performance.now();
  const enc = new TextEncoder(); let total = 0; const parts = strs.map((s) => { const b = enc.encode(s); total += b.length; return b; });
  const offs = new Int32Array(n + 1); const data = new Uint8Array(total); let o = 0; parts.forEach((b, i) => { data.set(b, o); o += b.length; offs[i + 1] = o; });
  console.log('manual', performance.now() - t);
  const v = new Float32Array(n * 256).fill(0.5);
  t = performance.now(); v.findIndex((x) => Number.isNaN(x)); console.log('findIndex', performance.now() - t);
  t = performance.now(); let bad = -1; for (let i = 0; i < v.length; i++) if (v[i] !== v[i]) { bad = i; break; } console.log('loop', performance.now() - t, bad);
  }
});
