import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface TestServer {
  url: string;
  /** Requests received so far. */
  requests: IncomingMessage[];
  /** Closes the server and destroys every connection it still holds. */
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 whose every answer the test writes by hand. */
export async function startTestServer(
  handle: (request: IncomingMessage, response: ServerResponse, index: number) => void,
): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    handle(request, response, requests.length - 1);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<string> {
  const server = await startTestServer(() => {});
  const { url } = server;
  await server.close();
  return url;
}
