/**
 * The ReConMUC protocol specification ({@code urn:reconmuc:0}) as classpath resources, for every
 * module that implements or tests it: the XML schemas ({@link org.reconmuc.spec.Schemas}), the
 * example stanzas that are the shared test vectors ({@link org.reconmuc.spec.TestVectors}) and the
 * scenario scripts that implementations replay ({@link org.reconmuc.spec.Scenarios}), with the reference
 * matcher of the scenarios' templates ({@link org.reconmuc.spec.TemplateMatcher}) and the codec's batch
 * reading for DOM trees ({@link org.reconmuc.spec.DomBatches}). The codec itself (namespaces, hardened
 * parsing, batches) is the module {@code codec/}. The normative text is {@code xep-spec/reconmuc.md}.
 *
 * <p>Resources live under {@code reconmuc/} on the classpath; each directory has an
 * {@code index.txt} that lists its files, because directories cannot be listed reliably inside a jar.
 */
package org.reconmuc.spec;
