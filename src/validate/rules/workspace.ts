// Workspace documents (v1.2): unique names and columns, none named like a row's own fields,
// at most one id column, and triggers that name a declared column and a declared status value.
import { pointerOf } from "../../read/json-pointer.js";
import { objectItems, str, stringItems, type RuleContext } from "../rule-context.js";

/**
 * The fields every stored row has besides its columns (the exports' workspace.py BUILT_IN).
 * A column of one of these names would share its place with the field: a CSV export's
 * header twice, and an import writing the field's value into the column.
 */
export const ROW_FIELDS = ["id", "created_at", "updated_at", "archived", "version"] as const;

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
        if ((ROW_FIELDS as readonly string[]).includes(colName)) {
          const fields = ROW_FIELDS.map((f) => `\`${f}\``).join(", ");
          ctx.report("E_WORKSPACE_RESERVED_COLUMN", pointerOf("workspace", i, "columns", j, "name"), `column "${colName}" has the name of a field every row has`, {
            hint: `the store keeps ${fields} itself, beside the columns; name this column otherwise, e.g. "${(name ?? "document").replace(/-/g, "_")}_${colName}"`,
          });
        }
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
