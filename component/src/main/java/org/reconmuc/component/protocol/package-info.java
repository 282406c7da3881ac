/**
 * The ReConMUC protocol ({@code urn:reconmuc:0}, {@code xep-spec/reconmuc.md}), and the seed
 * paper's {@code http://joom.com/extensions}: parsing and serialising consistency
 * requirements, topics and batches. Codec only; the semantics live in
 * {@code org.reconmuc.component.consistency}.
 */
package org.reconmuc.component.protocol;
