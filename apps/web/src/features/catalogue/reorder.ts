/**
 * Moving one record up or down a list kept in `sortOrder` (pure): the list as it is ordered, the record
 * changes places with its neighbour, and every record gets its position (1, 2, 3…) as its order, so that ties
 * and gaps left by older edits stop mattering. Only the records whose order changes are returned.
 */
export function moveAndRenumber<T extends { id: string; sortOrder: number }>(
  ordered: readonly T[],
  id: string,
  by: -1 | 1,
): { id: string; data: { sortOrder: number } }[] {
  const list = [...ordered];
  const from = list.findIndex((item) => item.id === id);
  const to = from + by;
  if (from === -1 || to < 0 || to >= list.length) return [];
  const [item] = list.splice(from, 1);
  list.splice(to, 0, item!);
  return list.flatMap((record, index) =>
    record.sortOrder === index + 1 ? [] : [{ id: record.id, data: { sortOrder: index + 1 } }],
  );
}
