/**
 * ReConMUC, the XEP-0045 multi-user chat service that runs as an XEP-0114 external component, as a
 * Testcontainers container: {@link org.reconmuc.testcontainers.ReconMucContainer} starts the
 * ReConMUC image beside the XMPP server of one's own tests and returns once the component has
 * attached to it.
 */
package org.reconmuc.testcontainers;
