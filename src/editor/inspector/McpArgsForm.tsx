/**
 * The args of a call to an MCP tool, as a form built from the tool's input schema (loaded when a
 * node whose own skill is an mcp skill is opened): a field per argument, typed as the schema says,
 * and what would make the call a parse_error, named by path, before any run.
 */
import type { McpSkill } from '../../graph/skills.ts';
import { visibleText } from '../../graph/visible.ts';
import { argsProblems } from '../../skills/mcp.ts';
import { useApp } from '../../store/index.ts';
import { listedTool, listTools, useMcpTools } from '../../hooks/mcpTools.ts';
import { Shown } from '../../ui/Shown.tsx';
import { JsonField, NumberField, SelectField, TextField, type Apply } from './fields.tsx';

type PropertySchema = { type?: unknown; description?: unknown; enum?: unknown };

function ArgField({ name, schema, required, value, apply }: { name: string; schema: PropertySchema; required: boolean; value: unknown; apply: Apply<unknown> }) {
  // The server's names for its args: one line each, their escapes shown.
  const label = `${visibleText(name)}${required ? '' : ' (optional)'}`;
  const help = typeof schema.description === 'string' ? schema.description : undefined;
  if (Array.isArray(schema.enum) && schema.enum.every((option) => typeof option === 'string'))
    return <SelectField label={label} value={value as string | undefined} options={schema.enum as string[]} optional={!required} help={help} apply={apply} />;
  if (schema.type === 'string') return <TextField label={label} value={value as string | undefined} optional={!required} multiline={name === 'content'} help={help} apply={apply} />;
  if (schema.type === 'number' || schema.type === 'integer') return <NumberField label={label} value={value as number | undefined} optional={!required} help={help} apply={apply} />;
  if (schema.type === 'boolean') return <SelectField label={label} value={value === undefined ? undefined : String(value)} options={['true', 'false']} optional={!required} help={help} apply={(text) => apply(text === undefined ? undefined : text === 'true')} />;
  return <JsonField label={`${label} (JSON)`} value={value} optional={!required} help={help} apply={apply} />;
}

export function McpArgsForm({ skill, args, apply }: { skill: McpSkill; args: Record<string, unknown>; apply: Apply<unknown> }) {
  const servers = useMcpTools((state) => state.servers);
  const tool = listedTool(servers, skill.server, skill.tool);
  if (!tool)
    return (
      <div className="field">
        <p className="field-help">The args of <Shown text={skill.tool} /> follow its input schema, which <Shown text={skill.server} /> tells.</p>
        <button type="button" disabled={servers[skill.server]?.listing === true} onClick={() => void listTools(skill.server, useApp.getState().graph)}>Read the args of <Shown text={skill.tool} /></button>
        {servers[skill.server]?.error && <p className="field-error" role="alert">{servers[skill.server]?.error}</p>}
      </div>
    );
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set(Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : []);
  const setArg = (name: string): Apply<unknown> => (value) => {
    const next = { ...args, [name]: value };
    if (value === undefined) delete next[name];
    return apply(next);
  };
  const problems = argsProblems(tool.inputSchema, args);
  return (
    <fieldset className="mcp-args" aria-label={`Args of ${visibleText(skill.tool)}`}>
      <legend>Args of <Shown text={skill.tool} /></legend>
      {Object.entries(properties).map(([name, schema]) => (
        <ArgField key={name} name={name} schema={schema} required={required.has(name)} value={args[name]} apply={setArg(name)} />
      ))}
      {problems.length > 0 && (
        <ul className="field-error" aria-label="Args problems">
          {problems.map((problem) => <li key={problem}>{problem}</li>)}
        </ul>
      )}
    </fieldset>
  );
}
