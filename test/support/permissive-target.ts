// A target that answers every request as if it had worked, whatever the
// document: a POST with 201 and its body (with an id), a GET with 200 and an
// empty list, anything else with 204. It holds nothing and refuses nothing:
// the no-crash test (any-document.test.ts) runs the whole catalog against
// it, so that every check builds its requests and grades answers it does not
// expect, on any document.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startPermissiveTarget(): Promise<{ url: string; close(): Promise<void> }> {
  let n = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST') {
        let body: unknown = {};
        // Only a JSON object is echoed: a text that cannot be one (JSON whitespace, then not "{") is answered
        // {id} without parsing it. The harness's hostile bodies (a MiB of "[" that never closes) cost JSON.parse
        // most of this target's time, to end in the same answer.
        if (/^[ \t\n\r]*\{/.test(text))
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON: answered all the same.
          }
        const answer =
          body !== null && typeof body === 'object' && !Array.isArray(body) ? { id: ++n, ...body } : { id: ++n };
        let written: string;
        try {
          written = JSON.stringify(answer);
        } catch {
          // Nested past what JSON.stringify's recursion reaches: the id alone.
          written = JSON.stringify({ id: n });
        }
        res.writeHead(201, { 'content-type': 'application/json', location: `${req.url ?? '/'}/${n}` });
        return void res.end(written);
      }
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('[]');
      }
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
