"""Idle-time work: the job queue, what a turn schedules, the model's memory pass, page jobs, warming."""
