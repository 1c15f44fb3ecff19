/** One coding agent's way to the handbook's MCP server with a personal token, as README.md documents it. */
export type EditorSetup = {
  readonly editor: 'Claude Code' | 'Cursor' | 'VS Code';
  /** Where the text goes and where the token comes from, before the text itself. */
  readonly hint: string;
  /** The configuration file's content the reader pastes. */
  readonly text: string;
  readonly testId: string;
};

/** The name every setup gives the server, and the environment variable that holds the token (never the token). */
const serverName = 'acme-handbook';
const tokenVariable = 'ACME_HANDBOOK_TOKEN';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * The ready-to-paste setups for the handbook served at `origin`. None carries the token itself: Claude Code and Cursor
 * read it from the environment each time they start the server, VS Code asks for it once and keeps it in its secret
 * storage. Claude Code's is a file, not `claude mcp add --header "… $VARIABLE"`: the shell would expand the variable
 * and the command would write the token itself into Claude Code's configuration.
 */
export function editorSetups(origin: string): EditorSetup[] {
  const url = `${origin}/mcp`;
  return [
    {
      editor: 'Claude Code',
      hint: `Keep the token in the ${tokenVariable} environment variable (your shell profile, or your password manager's command line), then put this in .mcp.json at the root of your project:`,
      text: json({
        mcpServers: {
          [serverName]: { type: 'http', url, headers: { Authorization: `Bearer \${${tokenVariable}}` } },
        },
      }),
      testId: 'created-token-claude-code',
    },
    {
      editor: 'Cursor',
      hint: `Keep the token in the ${tokenVariable} environment variable, then put this in ~/.cursor/mcp.json (or .cursor/mcp.json in a project):`,
      text: json({
        mcpServers: { [serverName]: { url, headers: { Authorization: `Bearer \${env:${tokenVariable}}` } } },
      }),
      testId: 'created-token-cursor',
    },
    {
      editor: 'VS Code',
      hint: 'Put this in .vscode/mcp.json: VS Code asks for the token when it first starts the server and keeps it in its secret storage.',
      text: json({
        inputs: [
          {
            type: 'promptString',
            id: `${serverName}-token`,
            description: 'Acme handbook access token',
            password: true,
          },
        ],
        servers: {
          [serverName]: { type: 'http', url, headers: { Authorization: `Bearer \${input:${serverName}-token}` } },
        },
      }),
      testId: 'created-token-vscode',
    },
  ];
}
