"""Preparing caption data, training the caption model, evaluating it and judging it blind."""
