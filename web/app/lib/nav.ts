// Links of the top bar and the footer.
export const mainNav = [
  { to: "/", label: "Home" },
  { to: "/products", label: "Products" },
  { to: "/about", label: "About us" },
  { to: "/bespoke", label: "Bespoke" },
  { to: "/contact-us", label: "Contact us" },
] as const;

export const footerQuickLinks = [
  { to: "/products", label: "Products" },
  { to: "/bespoke", label: "Bespoke" },
  { to: "/about", label: "About us" },
  { to: "/contact-us", label: "Contact us" },
] as const;

export const policyLinks = [
  { to: "/terms-conditions", label: "Terms of use" },
  { to: "/shipping-policy", label: "Shipping policy" },
  { to: "/returns", label: "Return & Refund policy" },
  { to: "/privacy-policy", label: "Privacy policy" },
] as const;
