// The names of the answerers that are not a chat model, as responses files record them (`solver`):
// apart from their code so that the command line can offer them without loading it (issue 50).

/** The no-LLM nearest-option solver (embedding-solver.ts): `ask --solver embedding`. */
export const EMBEDDING_SOLVER = 'embedding';
