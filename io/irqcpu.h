/*
 * irqcpu: which CPUs take a block device's completion interrupts, and on
 * which CPU a reader spent its time. A disk with one queue and one
 * interrupt (the virtio disk of a small VM) completes every read on one
 * CPU: a reader there is woken on its own CPU, a reader elsewhere through
 * an interprocessor interrupt, and on the project's VM a synchronous
 * reader pinned to the other CPU read at half the rate (docs/measured.md).
 * So where the query's backend and the replay ran is a figure of their
 * trials, read beside the device's.
 *
 * The interrupts are the device's PCI function's (msi_irqs, else its
 * legacy irq), found by walking up from /sys/class/block/NAME/device; each
 * one's counts per CPU come from /sys/kernel/irq/N/per_cpu_count, one
 * small file per interrupt. A device with more than IRQCPU_MAX_IRQS of
 * them (one queue per CPU, as NVMe drives have) completes on the CPU that
 * submitted and is not followed. Knows nothing of PostgreSQL.
 */
#ifndef IO_IRQCPU_H
#define IO_IRQCPU_H

#include <stdint.h>

#define IRQCPU_MAX_IRQS 16
#define IRQCPU_MAX_CPUS 64

struct irqcpu_irqs {
	int n;
	int irq[IRQCPU_MAX_IRQS];
};

/* Interrupts taken so far by each CPU, summed over a device's interrupts. */
struct irqcpu_counts {
	int      ncpu;
	uint64_t per_cpu[IRQCPU_MAX_CPUS];
};

/*
 * The interrupts of disk NAME (as in /proc/diskstats; a partition's are
 * its disk's) under SYSROOT (NULL: "/sys"). 0, -ENOENT when it has no
 * device behind it (md, dm, loop, zram, a FUSE emulation) or none with
 * interrupts, -E2BIG when it has more than IRQCPU_MAX_IRQS.
 */
int irqcpu_disk_irqs(const char *sysroot, const char *name, struct irqcpu_irqs *out);

/* The same, added to those OUT holds already (an md or dm device's are its
 * members' together): 0 when NAME had some, -ENOENT, or -E2BIG with OUT
 * emptied when they do not all fit. On failure OUT's count is 0 or as it
 * was; in every case it holds only interrupts found. */
int irqcpu_disk_add(const char *sysroot, const char *name, struct irqcpu_irqs *out);

/* Parse one per_cpu_count text ("0,46250701"), adding it into OUT.
 * 0 or -EINVAL (not numbers, or more CPUs than IRQCPU_MAX_CPUS). */
int irqcpu_parse_add(const char *text, struct irqcpu_counts *out);

/* The counts of IRQS now, under SYSROOT (NULL: "/sys"). 0 or -errno. */
int irqcpu_read(const char *sysroot, const struct irqcpu_irqs *irqs, struct irqcpu_counts *out);

/*
 * Where a reader ran and where the interrupts went over one window:
 * share[c] of the reader's time on CPU c (summing to 1 when have_reader),
 * irqs[c] the interrupts CPU c took.
 */
struct irqcpu_placement {
	int      ncpu;
	int      have_reader, have_irqs;
	double   share[IRQCPU_MAX_CPUS];
	uint64_t irqs[IRQCPU_MAX_CPUS];
};

/* The share of the reader's time spent on the CPUs that took the
 * interrupts, each CPU weighted by its part of them: 1 when the reader ran
 * only where every interrupt landed, 0 when never. NAN without a reader's
 * share or without interrupts. */
double irqcpu_on_irq_cpu(const struct irqcpu_placement *p);

#endif
