/** A dark blue for clients without a brand colour; white text reads on it. */
export const DEFAULT_BRAND_COLOR = '#1d3a6e';
