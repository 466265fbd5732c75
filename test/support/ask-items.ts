// IntentionQA Task-1 items in the released layout, for the ask tests: q1…qN, golds cycling A–D,
// prompts that say which item they are (so that a fake server can answer per item).
export function askItems(n: number, promptOf = (id: string) => `zero-shot prompt of item ${id}`) {
  return Array.from({ length: n }, (_, i) => ({
    id: `q${i + 1}`,
    item_a_name: `Product A${i + 1}`,
    item_b_name: `Product B${i + 1}`,
    relation: 'usedFor',
    assertion: `PersonX bought a product of Item A and a product of Item B because reason ${i + 1}.`,
    gold_ind: 'ABCD'[i % 4],
    options: { A: 'because a.', B: 'because b.', C: 'because c.', D: 'because d.' },
    task: 1,
    difficulty: 'easy',
    prompts: { zero_shot: promptOf(`q${i + 1}`), cot: `CoT prompt of item q${i + 1}` },
  }));
}
