/*
 * faultpoint: named places where the fault-injection tests stop the
 * process, so that a signal (SIGKILL, SIGINT) or a killed server lands at
 * exactly that step rather than when a timer guesses it. With
 * EICBENCH_FAULT=NAME (or NAME@N: the Nth time) in the environment, the
 * process stops itself (SIGSTOP) when it reaches that place; the test sees
 * it stopped (state T), does its harm, and sends SIGCONT or SIGKILL.
 * Without the variable, or at any other name, nothing happens. A point is
 * taken once per process.
 */
#ifndef IO_FAULTPOINT_H
#define IO_FAULTPOINT_H

#define FAULTPOINT_ENV "EICBENCH_FAULT"

/* Stop here when EICBENCH_FAULT names NAME (and this is its Nth time). */
void faultpoint(const char *name);

#endif
