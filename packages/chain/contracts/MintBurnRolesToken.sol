// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title MintBurnRolesToken
/// @notice ERC-20 with a managed supply: accounts holding MINTER_ROLE create tokens, accounts
///         holding BURNER_ROLE destroy their own (or, with an allowance, someone else's).
///         DEFAULT_ADMIN_ROLE grants and revokes the three roles; the last admin can never be
///         removed, so the roles can always be repaired. Reviewed in REVIEW.md ("erc20-mint-burn").
contract MintBurnRolesToken {
    bytes32 public constant DEFAULT_ADMIN_ROLE = 0x00;
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    bytes32 public constant BURNER_ROLE = keccak256("BURNER_ROLE");

    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    /// Number of accounts holding DEFAULT_ADMIN_ROLE; never drops to zero.
    uint256 public adminCount;

    mapping(address account => uint256) public balanceOf;
    mapping(address owner => mapping(address spender => uint256)) public allowance;
    mapping(bytes32 role => mapping(address account => bool)) private _roles;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender);
    event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender);

    error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
    error ERC20InvalidReceiver(address receiver);
    error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error ERC20InvalidSpender(address spender);
    error AccessControlUnauthorizedAccount(address account, bytes32 neededRole);
    error AccessControlUnknownRole(bytes32 role);
    error AccessControlInvalidAccount(address account);
    error AccessControlLastAdmin();

    modifier onlyRole(bytes32 role) {
        if (!_roles[role][msg.sender]) revert AccessControlUnauthorizedAccount(msg.sender, role);
        _;
    }

    /// @param initialSupply minted to `admin` at construction (may be zero).
    /// @param admin receives DEFAULT_ADMIN_ROLE and the initial supply; the zero address means
    ///        the deployer. Minters and burners are granted by the admin afterwards.
    constructor(string memory tokenName, string memory tokenSymbol, uint8 tokenDecimals, uint256 initialSupply, address admin) {
        address firstAdmin = admin == address(0) ? msg.sender : admin;
        if (firstAdmin == address(this)) revert AccessControlInvalidAccount(firstAdmin);
        name = tokenName;
        symbol = tokenSymbol;
        decimals = tokenDecimals;
        _grant(DEFAULT_ADMIN_ROLE, firstAdmin);
        _mint(firstAdmin, initialSupply);
    }

    // ----- ERC-20 -----

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    /// @dev Overwrites the allowance (ERC-20): set a non-zero allowance to zero before changing it.
    function approve(address spender, uint256 value) external returns (bool) {
        if (spender == address(0)) revert ERC20InvalidSpender(address(0));
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _spendAllowance(from, msg.sender, value);
        _transfer(from, to, value);
        return true;
    }

    // ----- supply -----

    function mint(address to, uint256 value) external onlyRole(MINTER_ROLE) {
        _mint(to, value);
    }

    /// Destroys `value` of the caller's own tokens.
    function burn(uint256 value) external onlyRole(BURNER_ROLE) {
        _burn(msg.sender, value);
    }

    /// Destroys `value` of `from`'s tokens, spending the allowance `from` gave the caller.
    function burnFrom(address from, uint256 value) external onlyRole(BURNER_ROLE) {
        _spendAllowance(from, msg.sender, value);
        _burn(from, value);
    }

    // ----- roles -----

    function hasRole(bytes32 role, address account) external view returns (bool) {
        return _roles[role][account];
    }

    function grantRole(bytes32 role, address account) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _requireKnownRole(role);
        if (account == address(0) || account == address(this)) revert AccessControlInvalidAccount(account);
        _grant(role, account);
    }

    function revokeRole(bytes32 role, address account) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _requireKnownRole(role);
        _revoke(role, account);
    }

    /// Gives up one of the caller's own roles (e.g. a compromised minter key).
    function renounceRole(bytes32 role) external {
        _requireKnownRole(role);
        _revoke(role, msg.sender);
    }

    // ----- internals -----

    function _requireKnownRole(bytes32 role) private pure {
        if (role != DEFAULT_ADMIN_ROLE && role != MINTER_ROLE && role != BURNER_ROLE) revert AccessControlUnknownRole(role);
    }

    function _grant(bytes32 role, address account) private {
        if (_roles[role][account]) return;
        _roles[role][account] = true;
        if (role == DEFAULT_ADMIN_ROLE) adminCount += 1;
        emit RoleGranted(role, account, msg.sender);
    }

    function _revoke(bytes32 role, address account) private {
        if (!_roles[role][account]) return;
        if (role == DEFAULT_ADMIN_ROLE) {
            if (adminCount == 1) revert AccessControlLastAdmin();
            adminCount -= 1;
        }
        _roles[role][account] = false;
        emit RoleRevoked(role, account, msg.sender);
    }

    /// @dev An allowance of type(uint256).max is never decreased ("infinite approval").
    function _spendAllowance(address owner, address spender, uint256 value) private {
        uint256 allowed = allowance[owner][spender];
        if (allowed == type(uint256).max) return;
        if (allowed < value) revert ERC20InsufficientAllowance(spender, allowed, value);
        unchecked {
            allowance[owner][spender] = allowed - value;
        }
    }

    /// @dev Tokens sent to the zero address or to this contract could never move again.
    function _transfer(address from, address to, uint256 value) private {
        if (to == address(0) || to == address(this)) revert ERC20InvalidReceiver(to);
        uint256 available = balanceOf[from];
        if (available < value) revert ERC20InsufficientBalance(from, available, value);
        // The sum of all balances is totalSupply (checked on mint), so neither line can wrap.
        unchecked {
            balanceOf[from] = available - value;
            balanceOf[to] += value;
        }
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) private {
        if (to == address(0) || to == address(this)) revert ERC20InvalidReceiver(to);
        // Checked: a mint that would push the supply past 2^256 - 1 reverts.
        totalSupply += value;
        unchecked {
            balanceOf[to] += value;
        }
        emit Transfer(address(0), to, value);
    }

    function _burn(address from, uint256 value) private {
        uint256 available = balanceOf[from];
        if (available < value) revert ERC20InsufficientBalance(from, available, value);
        unchecked {
            balanceOf[from] = available - value;
            totalSupply -= value;
        }
        emit Transfer(from, address(0), value);
    }
}
