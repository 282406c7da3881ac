/**
 * ReConMUC's component: {@link org.reconmuc.component.Main} and {@link org.reconmuc.component.ReconMuc}
 * assemble the XEP-0114 transport, the XEP-0045 service and its configuration.
 */
package org.reconmuc.component;
