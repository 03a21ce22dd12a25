"""The parts of the appliance that wrap an adapter: each is a component of
the daemon's life cycle (started in order, stopped in reverse, retried when
its hardware or port is missing) and hands the adapter plain arguments taken
from the config."""
