"""What the prompt holds: the plan, its assembly and wording, the token budgets, the folded head."""
