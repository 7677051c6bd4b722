"""Benchmarks behind ``paperclip bench``: they print numbers and compare against a baseline."""
