proj a
