-- Every measured run starts at the same point of the checkpoint cycle.
CHECKPOINT;
