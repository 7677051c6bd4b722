"""How memory is written: the rules' extraction, the model's proposals, vetting, merging, validated patches."""
