"""What leaves the window: page-outs, bookmarks, the running summary and the summary chain."""
