"""What the simulator counts for particular games (runners are chosen by ``GameInfo.dynamics``)."""
