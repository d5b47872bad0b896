//! The relationship-status section (product.md, "Roles and abilities").

/// What the relationship-status section rule needs to know about a user.
#[derive(Clone, Copy, Debug, Default)]
pub struct RelationshipFacts {
    pub is_admin: bool,
    /// An active subscription of the wifey brand.
    pub has_active_wifey_subscription: bool,
    pub is_tandem_child_account: bool,
}

/// Visible to admin or users with an active subscription of the wifey brand.
pub fn may_see_relationship_section(f: RelationshipFacts) -> bool {
    f.is_admin || f.has_active_wifey_subscription
}

/// Editable by admin, or by an active wifey member who is not a tandem child account.
pub fn may_edit_relationship(f: RelationshipFacts) -> bool {
    f.is_admin || (f.has_active_wifey_subscription && !f.is_tandem_child_account)
}
