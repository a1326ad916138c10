/**
 * The server builds its JSON Schema validator on first use, not at start-up: the first elicitation
 * answer must still be checked against the requested schema, and every later one too.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildToolServer } from '../../src/mcp/tool-server.js';

const requestedSchema = {
  type: 'object' as const,
  properties: {
    count: { type: 'number' as const },
    email: { type: 'string' as const, format: 'email' as const },
  },
  required: ['count'],
};

async function connected(answers: Record<string, unknown>[]) {
  const server = buildToolServer([], { name: 'berth', version: '0.0.0' });
  const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: answers.shift() }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { server, client };
}

describe('the lazily built elicitation validator', () => {
  it('refuses a first answer that does not match the schema, then checks the next ones too', async () => {
    const { server, client } = await connected([
      { count: 'three' },
      { count: 3, email: 'someone@example.com' },
      { count: 3, email: 'not an address' },
    ]);
    const first = server.elicitInput({ message: 'how many?', requestedSchema });
    await expect(first).rejects.toBeInstanceOf(McpError);
    await expect(first).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('does not match requested schema'),
    });
    await expect(server.elicitInput({ message: 'how many?', requestedSchema })).resolves.toEqual({
      action: 'accept',
      content: { count: 3, email: 'someone@example.com' },
    });
    // Formats are checked too: the validator is the SDK's own ajv with its formats.
    await expect(server.elicitInput({ message: 'how many?', requestedSchema })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    await client.close();
  });
});
