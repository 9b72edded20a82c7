"""The timer service: decision clocks, the AFK ladder's deadlines and idle tables."""
