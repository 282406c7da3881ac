/**
 * Micro-benchmarks of ReConMUC (DESIGN.md "Testing and measuring"): JMH benchmarks, each class
 * one concern, and plain {@code main} reports for what is not a timing.
 *
 * <ul>
 *   <li>{@link org.reconmuc.benchmarks.EngineMessageBenchmark}: the consistency engine's cost per
 *       groupchat message as the room grows, every occupant relaxed;
 *       {@link org.reconmuc.benchmarks.StandardBroadcastBenchmark} is its baseline, the loop a
 *       room runs for standard occupants, measured in the same run.</li>
 *   <li>{@link org.reconmuc.benchmarks.BatchBenchmark}: rendering a flush as a plain or
 *       deflate-compressed batch stanza, beside sending each message on its own.</li>
 *   <li>{@link org.reconmuc.benchmarks.FootprintReport} (JOL, a {@code main}): the retained
 *       state per relaxed occupant in bytes.</li>
 *   <li>{@link org.reconmuc.benchmarks.BatchSizeReport} (a {@code main}): bytes per message,
 *       one by one vs plain vs deflated batches, payload and modelled wire bytes.</li>
 * </ul>
 *
 * <p>The workloads are deterministic (seeded): {@link org.reconmuc.benchmarks.RelaxedRoom} drives
 * the engine as a room does, and {@link org.reconmuc.benchmarks.IrcCorpus} loads real message
 * bodies from {@code ../shared/irc-logs/}. Nothing here runs during the build; the unit tests
 * only run each benchmark method once for correctness.
 */
package org.reconmuc.benchmarks;
