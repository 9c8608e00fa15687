// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title FixedSupplyToken
/// @notice ERC-20 whose whole supply is created once, in the constructor, for one holder.
///         Nobody holds any privilege afterwards: no owner, no mint, no burn, no pause, no
///         upgrade. Reviewed in REVIEW.md ("erc20-fixed-supply").
contract FixedSupplyToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public immutable totalSupply;

    mapping(address account => uint256) public balanceOf;
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    // ERC-6093 errors, so wallets and explorers decode the reverts.
    error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
    error ERC20InvalidReceiver(address receiver);
    error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error ERC20InvalidSpender(address spender);

    /// @param initialHolder receives the whole supply; the zero address means the deployer.
    constructor(string memory tokenName, string memory tokenSymbol, uint8 tokenDecimals, uint256 initialSupply, address initialHolder) {
        address holder = initialHolder == address(0) ? msg.sender : initialHolder;
        if (holder == address(this)) revert ERC20InvalidReceiver(holder);
        name = tokenName;
        symbol = tokenSymbol;
        decimals = tokenDecimals;
        totalSupply = initialSupply;
        balanceOf[holder] = initialSupply;
        emit Transfer(address(0), holder, initialSupply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    /// @dev Overwrites the allowance (ERC-20). Changing a non-zero allowance to another
    ///      non-zero value can be front-run by the spender: set it to zero first.
    function approve(address spender, uint256 value) external returns (bool) {
        if (spender == address(0)) revert ERC20InvalidSpender(address(0));
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// @dev An allowance of type(uint256).max is never decreased ("infinite approval").
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert ERC20InsufficientAllowance(msg.sender, allowed, value);
            unchecked {
                allowance[from][msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    /// @dev Tokens sent to the zero address or to this contract could never move again.
    function _transfer(address from, address to, uint256 value) private {
        if (to == address(0) || to == address(this)) revert ERC20InvalidReceiver(to);
        uint256 available = balanceOf[from];
        if (available < value) revert ERC20InsufficientBalance(from, available, value);
        // The sum of all balances is totalSupply, so neither line can wrap.
        unchecked {
            balanceOf[from] = available - value;
            balanceOf[to] += value;
        }
        emit Transfer(from, to, value);
    }
}
