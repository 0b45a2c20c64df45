"""Aus die Maus!' learning environments (public path: ``mauseloch.envs.openspiel``): its OpenSpiel
game (``openspiel``)."""
