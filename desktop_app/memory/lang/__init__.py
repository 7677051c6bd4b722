"""Language knowledge shared by the memory core (English and Chinese): text helpers and kind cues."""
