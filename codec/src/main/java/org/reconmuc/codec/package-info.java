/**
 * The one codec of ReConMUC's wire forms ({@code xep-spec/reconmuc.md}), in plain Java (the JDK
 * only, no Smack, no Tinder), used by the service, the client library, the IRC replay and the
 * tests: the namespaces ({@link org.reconmuc.codec.XmlNamespaces}), hardened XML parsing
 * ({@link org.reconmuc.codec.SecureXml}) and, in {@code batch}, writing and strictly reading batches.
 */
package org.reconmuc.codec;
