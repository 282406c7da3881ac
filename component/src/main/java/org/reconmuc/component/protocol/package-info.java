/**
 * The ReConMUC protocol ({@code urn:reconmuc:0}, {@code xep-spec/reconmuc.md}), and the seed
 * paper's {@code http://joom.com/extensions}, on the service's dom4j elements: parsing requests
 * and rendering results of consistency requirements, reading a message's marks (topics, reply,
 * addressees), and rendering a logged message as a batch item. Batches themselves are written by
 * the shared codec ({@code org.reconmuc.codec.batch}); the semantics live in
 * {@code org.reconmuc.component.consistency}.
 */
package org.reconmuc.component.protocol;
