// Object.groupBy / Map.groupBy (Node 21+) for tools that assume them; this project targets Node 20.19.
Object.groupBy ??= (items, fn) => {
  const out = Object.create(null);
  let i = 0;
  for (const item of items) {
    const k = fn(item, i++);
    (out[k] ??= []).push(item);
  }
  return out;
};
Map.groupBy ??= (items, fn) => {
  const out = new Map();
  let i = 0;
  for (const item of items) {
    const k = fn(item, i++);
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(item);
  }
  return out;
};
