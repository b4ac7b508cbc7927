import { summarize } from './stats';

/** A react-admin list parameter: JSON, URL-encoded. */
export const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

export async function expectOk(url: string, headers: Record<string, string>): Promise<void> {
  const res = await fetch(url, { headers });
  if (!res.ok)
    throw new Error(`${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  await res.arrayBuffer();
}

/** The exact total of a react-admin list answer, from its Content-Range (`items 0-24/1000`). */
export async function totalOf(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return Number(res.headers.get('content-range')?.split('/').pop());
}

/** One request at a time after 3 warm-up requests: latency without queueing. */
export async function sequential(url: string, headers: Record<string, string>, count: number) {
  for (let i = 0; i < 3; i += 1) await expectOk(url, headers);
  const latencies: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  }
  return summarize(latencies);
}
