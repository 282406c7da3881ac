/**
 * ReConMUC as an Openfire plugin: {@link org.reconmuc.openfire.ReconMucPlugin} registers the
 * component's {@link org.reconmuc.component.muc.MucService} (a Tinder component) with Openfire's
 * internal component manager, configured by Openfire system properties
 * ({@link org.reconmuc.openfire.PluginSettings}).
 */
package org.reconmuc.openfire;
