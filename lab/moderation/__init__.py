"""Training the content check's meaning classifier (``generation/moderation/classifier.json``)."""
