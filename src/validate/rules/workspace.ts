// Workspace documents (v1.2): unique names and columns, at most one id column, and triggers
// that name a declared column and a declared status value.
import { pointerOf } from "../../read/json-pointer.js";
import { objectItems, str, stringItems, type RuleContext } from "../rule-context.js";

export function checkWorkspace(ctx: RuleContext): void {
  const docs = objectItems(ctx.root.workspace);
  const names = new Map<string, number>();
  for (const [i, doc] of docs) {
    const name = str(doc.name);
    if (name !== undefined) {
      const first = names.get(name);
      if (first !== undefined) {
        ctx.report("E_DUPLICATE_WORKSPACE_NAME", pointerOf("workspace", i, "name"), `workspace document "${name}" is already declared as workspace[${first}]`);
      } else names.set(name, i);
    }
    const columns = new Map<string, number>();
    let idColumn: number | undefined;
    for (const [j, column] of objectItems(doc.columns)) {
      const colName = str(column.name);
      if (colName !== undefined) {
        if (columns.has(colName)) {
          ctx.report("E_WORKSPACE_DUPLICATE_COLUMN", pointerOf("workspace", i, "columns", j, "name"), `column "${colName}" is already declared as columns[${columns.get(colName)}]`);
        } else columns.set(colName, j);
      }
      if (column.id === true) {
        if (idColumn !== undefined) {
          ctx.report("E_WORKSPACE_MULTIPLE_ID", pointerOf("workspace", i, "columns", j, "id"), `a document has at most one id column; columns[${idColumn}] is already the id`, {
            hint: "set `id: true` on the single column that addresses rows",
          });
        } else idColumn = j;
      }
    }
    const statuses = new Set(stringItems(doc.statusValues).map(([, s]) => s));
    for (const [j, trigger] of objectItems(doc.triggers)) {
      const column = str(trigger.column);
      if (column !== undefined && !columns.has(column)) {
        ctx.report("E_WORKSPACE_TRIGGER_COLUMN", pointerOf("workspace", i, "triggers", j, "column"), `trigger column "${column}" is not a declared column of "${name ?? `workspace[${i}]`}"`, {
          hint: columns.size ? `declared columns: ${[...columns.keys()].map((c) => `"${c}"`).join(", ")}` : "declare it under `columns`",
        });
      }
      const status = str(trigger.status);
      if (status !== undefined && !statuses.has(status)) {
        ctx.report("E_WORKSPACE_TRIGGER_STATUS", pointerOf("workspace", i, "triggers", j, "status"), `trigger status "${status}" is not in \`statusValues\``, {
          hint: statuses.size ? `declared statuses: ${[...statuses].map((s) => `"${s}"`).join(", ")}` : "triggers need `statusValues` declared on the document",
        });
      }
    }
  }
}
