"""The bots that play Mausgeflippt only: the reaction levels."""
