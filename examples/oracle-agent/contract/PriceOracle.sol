// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A minimal price oracle, as the Shade Agent template's: one price (USD cents), read by anyone, set only by
/// its updater, the agent's chain-signature address.
contract PriceOracle {
    /// The one account allowed to set the price (the agent's derived EVM address).
    address public immutable updater;

    uint256 private price;

    /// Emitted on every update, with the price set and who set it.
    event PriceUpdated(uint256 price, address indexed updater);

    /// `updatePrice` was called by another account than the updater.
    error NotUpdater(address caller);

    constructor(address updater_) {
        updater = updater_;
    }

    function updatePrice(uint256 _price) external {
        if (msg.sender != updater) revert NotUpdater(msg.sender);
        price = _price;
        emit PriceUpdated(_price, msg.sender);
    }

    function getPrice() external view returns (uint256) {
        return price;
    }
}
