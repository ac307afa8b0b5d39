import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:5391';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 200)));
await page.goto(base + '/runs');
await page.getByLabel('World').selectOption('smallville');
await page.getByLabel('Steps', { exact: true }).fill('2500');
await page.getByLabel('Seed').fill('3');
await page.getByLabel(/Offline stand-in/).check();
await page.getByRole('button', { name: 'Start run' }).click();
await page.waitForURL(/\/runs\/smallville-/);
const t0 = Date.now();
for (let i = 0; i < 60; i++) {
  await page.waitForTimeout(2000);
  const chip = await page.locator('.status .chip').textContent();
  const step = await page.getByLabel('Current step').textContent();
  console.log(((Date.now() - t0) / 1000).toFixed(0), chip, step);
  if (chip === 'done') break;
}
const id = page.url().split('/').pop().split('?')[0];
console.log(await (await page.request.get(base + '/api/runs/' + id)).text().then(t => t.slice(0, 200)));
await browser.close();
