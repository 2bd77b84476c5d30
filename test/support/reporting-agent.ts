// An agent that reports an outcome: a real child process that reads "<status>: <summary>" from its
// prompt and calls report_outcome on Steward's MCP server with its run's key (inside its sandbox,
// /mcp is all of Steward it reaches); it fails when Steward refuses.
const reportFromPrompt = `
let prompt = '';
process.stdin.on('data', (chunk) => (prompt += chunk)).on('end', () => {
  const [status, summary] = prompt.trim().split(': ');
  const headers = { authorization: 'Bearer ' + process.env.STEWARD_API_KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'report_outcome', arguments: { status, summary } } };
  const request = require('node:http').request(process.env.STEWARD_MCP_URL, { method: 'POST', headers }, (response) => {
    let answer = '';
    response.on('data', (chunk) => (answer += chunk)).on('end', () => {
      const reported = response.statusCode === 200 && !JSON.parse(answer).result.isError;
      console.log(reported ? 'reported ' + status : 'refused: ' + answer);
      process.exitCode = reported ? 0 : 4;
    });
  });
  request.end(JSON.stringify(call));
});`;

export const reportingAgent = { provider: 'command', preset: 'custom', command: process.execPath, args: ['-e', reportFromPrompt], stewardTools: true };
